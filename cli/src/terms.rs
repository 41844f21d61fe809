//! Definitions of the terms the reports use, written once and shown in two places: the
//! subcommands' `--help` (as `long_about`) and the glossary of the HTML report.

/// A defined term: name and definition.
pub type Term = (&'static str, &'static str);

/// Terms of `paths` (path-based reuse, Fang, Carr, Önder, Wang).
pub const PATHS: &[Term] = &[
    (
        "reuse distance",
        "the number of distinct other cache lines touched between two references to the same \
         line (counted per instruction reference; infinite for a line's first touch).",
    ),
    (
        "pattern",
        "a locality pattern: a cluster of nearby reuse distances of one instruction. Distances go \
         into bins (log2 below 1K lines, 1K wide above); adjacent bins i, i+1 merge while \
         min(i+1) - max(i) <= max(i) - min(i) (section 3.1). With --min-frequency F a pattern that \
         holds F of the references stops merging (the paper's minimum frequency); patterns under \
         --drop-below of the references are dropped as noise (a tool option, not in the paper).",
    ),
    (
        "multiple patterns",
        "an instruction whose distances over all paths form two or more patterns.",
    ),
    (
        "pathN / history",
        "the top N bits of the thread's branch-history stack: one bit per conditional branch \
         (the index of the taken successor; a switch pushes several), where a loop's bits are \
         squashed after l iterations (--squash, default line size / element size) and when the \
         loop exits (section 3.2). --explain-paths names the branch (source line) of each bit.",
    ),
    (
        "differentiable",
        "an instruction with multiple patterns is differentiable by N bits when every N-bit path \
         that reaches it carries at most one pattern: the path tells which pattern occurs.",
    ),
    (
        "aliasing (exact windows)",
        "not differentiable by N bits but differentiable by the exact last-N-branch windows (the \
         same bits, each with its branch): different paths share the same bits. Per history \
         length, as a % of the multi-pattern instructions.",
    ),
    (
        "aliasing % (paper)",
        "the path paper's measure (section 4.2, Tables 1-2): at 16 bits, the aliasing above; for \
         N < 16, the instructions aliased at 16 bits plus those differentiable by 16 bits but not \
         by N bits. Reported for N <= 16 when the longest history length is at least 16.",
    ),
    (
        "short+long",
        "not differentiable, and some N-bit path carries both a short pattern (mean distance \
         below --long-threshold lines) and a long one (Table 3).",
    ),
    (
        "paths (column)",
        "the number of distinct (instruction, N-bit path) pairs seen in the run.",
    ),
    (
        "beyond --max-paths",
        "past --max-paths (instruction, branch-window) records, a new path is kept with only its \
         most recent branches (a shorter history length), so memory stays bounded: its \
         references lie on no known path of the longer lengths. The column gives them as a % of \
         all line references per length; `*` marks a verdict made without them. Lengths at 0.00 \
         are exact (their paper aliasing too when path16 is at 0.00, since it rests on the \
         16-bit verdicts); --max-paths unlimited makes every length exact.",
    ),
    (
        "path string",
        "the N history bits, oldest left and most recent right; `.` marks a position the stack \
         did not fill: it held fewer than N bits (few branches yet, or squashing had cleared \
         them), and such a shorter history is a path of its own.",
    ),
];

/// Terms of `paths-predict` (section 3.3 and 4.3).
pub const PATHS_PREDICT: &[Term] = &[
    (
        "SIZE",
        "the data size of a run's input (FILE:SIZE), in any unit as long as all three runs use \
         the same one; the growth models are fitted against it.",
    ),
    (
        "missing",
        "validation paths (instruction and N-bit history) absent, or without patterns, in at \
         least one training run: nothing to fit.",
    ),
    (
        "coverage",
        "covered / validation paths, in %: a path is covered when both training runs have it \
         with the same number of patterns (section 3.3).",
    ),
    (
        "accuracy",
        "correct / covered paths, in %: correct when the validation run has as many patterns \
         and each predicted pattern falls into the same bins as the observed one or overlaps it \
         by at least --overlap (the paper's overlap formula, 0.9 by default).",
    ),
];

/// Terms of `simt` (SIMT data reuse degree thesis).
pub const SIMT: &[Term] = &[
    (
        "MI",
        "a memory instruction as a SIMT machine issues it: one load or store executed together \
         by the threads of a warp (--mi-scope warp) or a block (--mi-scope block), an array of \
         one address per active thread (lane).",
    ),
    (
        "multiplicity",
        "how many lanes of one MI access the same address (thesis definition 1).",
    ),
    (
        "DS",
        "data reuse degree (sharing) of two MIs i < j: the sum over the addresses of j that i \
         also accessed of their multiplicity in j (definition 2). The plots show DS summed over \
         all MI pairs at each RD.",
    ),
    (
        "RD",
        "reuse distance between two MIs: j - i, how many MIs apart they are in the stream \
         (definition 3; not the LRU reuse distance of the other commands).",
    ),
    (
        "reusing pairs",
        "MI pairs (i, j) with DS > 0 at a given RD.",
    ),
    ("peak", "the RD with the largest summed DS, and that DS."),
];

/// Terms of `annotate` and the report's source tables.
pub const ANNOTATE: &[Term] = &[
    (
        "accesses",
        "access events: executions of memory instructions.",
    ),
    (
        "line refs",
        "cache-line references: an access that spans two lines makes two.",
    ),
    (
        "cold",
        "references to a line that no thread had touched before (infinite reuse distance).",
    ),
    (
        "RD pXX",
        "the XX-th percentile of the finite reuse distances (in lines, all threads in stamp \
         order; cold references excluded); exact below 1024, rounded down to within 1/16 above.",
    ),
    (
        "L1 / L2 misses",
        "references that missed the thread's private L1 / missed both the L1 and the shared L2 \
         in the exact LRU simulator.",
    ),
    (
        "miss-ratio curve",
        "for a fully associative LRU cache of C lines, the fraction of references with reuse \
         distance >= C or cold: (cold + #{d >= C}) / references.",
    ),
];

/// Renders terms as `--help` text: a heading line and one indented paragraph per term.
pub const fn help_heading() -> &'static str {
    "Terms:"
}

/// Formats terms for a `long_about`: `about` first, then the terms.
pub fn long_about(about: &str, terms: &[Term]) -> String {
    let mut s = format!("{about}\n\n{}\n", help_heading());
    for (name, def) in terms {
        s.push_str(&format!("  {name}: {def}\n"));
    }
    s
}
