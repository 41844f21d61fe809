//! Compiles the one C file of the runtime: the thread-local cursor (see `src/tls.c`).

fn main() {
    println!("cargo:rerun-if-changed=src/tls.c");
    cc::Build::new()
        .file("src/tls.c")
        .opt_level(2)
        .compile("rdtls");
}
