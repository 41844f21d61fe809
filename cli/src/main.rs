//! `rda-report`: every analysis of rdtools traces as a subcommand. The tool is the `rda_report`
//! library (commands tested in process there); this binary only runs its command line and exits
//! with its status (0 success, 1 failure, 2 usage error).

fn main() {
    std::process::exit(rda_report::run_args(std::env::args_os()));
}
