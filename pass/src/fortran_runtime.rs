//! The flang 19 runtime entry points that move array data, by name: which ones the pass records
//! at their call sites ([`runtime_transfer`]) and which ones it leaves untraced
//! ([`untraced_runtime_call`]). Names only, no IR: both the id assignment (`ids`, which gives each
//! recorded argument a memory-instruction id) and the instrumentation (`fortran`) ask it.

use rdtrace::meta::AccessKind;

/// Array arguments of a flang runtime entry point that moves array data: the descriptors it
/// reads (argument indexes) and the one it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RuntimeTransfer {
    /// Descriptors whose elements the callee reads.
    pub reads: &'static [u32],
    /// Descriptor whose elements the callee writes (a pointer that may be null for
    /// `_FortranACopyOutAssign`).
    pub writes: u32,
}

/// The runtime entry points of flang 19 whose traffic is recorded (`flang/Runtime/assign.h`
/// and `transformational.h`). The assignments copy every element once, so their traffic is
/// exact up to order; the transformational intrinsics are recorded as one read of each array
/// argument and one write of the result (`SPREAD` reads its source more than once, `PACK` and
/// `UNPACK` only the elements the mask selects).
const TRANSFERS: &[(&str, RuntimeTransfer)] = &[
    ("_FortranAAssign", copy()),
    ("_FortranAAssignTemporary", copy()),
    ("_FortranAAssignExplicitLengthCharacter", copy()),
    ("_FortranAAssignPolymorphic", copy()),
    ("_FortranACopyInAssign", copy()),
    ("_FortranACopyOutAssign", copy()),
    ("_FortranAReshape", copy()),
    ("_FortranATranspose", copy()),
    ("_FortranACshift", copy()),
    ("_FortranACshiftVector", copy()),
    ("_FortranAEoshift", copy()),
    ("_FortranAEoshiftVector", copy()),
    ("_FortranASpread", copy()),
    (
        "_FortranAPack",
        RuntimeTransfer {
            reads: &[1, 2],
            writes: 0,
        },
    ),
    (
        "_FortranAUnpack",
        RuntimeTransfer {
            reads: &[1, 2, 3],
            writes: 0,
        },
    ),
];

/// The common shape: argument 1 (the source) is read, argument 0 (the destination) written.
const fn copy() -> RuntimeTransfer {
    RuntimeTransfer {
        reads: &[1],
        writes: 0,
    }
}

/// The recorded traffic of a call to `callee`, a function declared (not defined) in the module.
pub(crate) fn runtime_transfer(callee: &str) -> Option<RuntimeTransfer> {
    TRANSFERS
        .iter()
        .find(|(name, _)| *name == callee)
        .map(|&(_, t)| t)
}

/// The memory sites of a [`RuntimeTransfer`] call, in the order their events happen: the reads
/// (before the call), then the write (after it).
pub(crate) fn transfer_sites(t: RuntimeTransfer) -> impl Iterator<Item = (AccessKind, u32)> {
    t.reads
        .iter()
        .map(|&arg| (AccessKind::TransferRead, arg))
        .chain(std::iter::once((AccessKind::TransferWrite, t.writes)))
}

/// flang 19 runtime entry points that read or write whole arrays and are not traced: matrix
/// products, reductions and array I/O touch their arguments in an order (and as often) as
/// their algorithm does, which one range per argument would misstate.
pub(crate) fn untraced_runtime_call(callee: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "_FortranAMatmul",
        "_FortranADotProduct",
        "_FortranASum",
        "_FortranAProduct",
        "_FortranAMaxval",
        "_FortranAMinval",
        "_FortranAMaxloc",
        "_FortranAMinloc",
        "_FortranAFindloc",
        "_FortranANorm2",
        "_FortranAAll",
        "_FortranAAny",
        "_FortranACount",
        "_FortranAParity",
        "_FortranAIAll",
        "_FortranAIAny",
        "_FortranAIParity",
        "_FortranAReduce",
        "_FortranAioOutputDescriptor",
        "_FortranAioInputDescriptor",
    ];
    PREFIXES.iter().any(|p| callee.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_read_the_source_and_write_the_destination() {
        let t = runtime_transfer("_FortranAAssign").expect("recorded");
        let sites: Vec<_> = transfer_sites(t).collect();
        assert_eq!(
            sites,
            [
                (AccessKind::TransferRead, 1),
                (AccessKind::TransferWrite, 0)
            ]
        );
        let pack: Vec<_> = transfer_sites(runtime_transfer("_FortranAPack").unwrap()).collect();
        assert_eq!(pack.len(), 3);
        assert!(runtime_transfer("_FortranAAssignX").is_none());
        assert!(runtime_transfer("_FortranAioOutputReal64").is_none());
    }

    #[test]
    fn matmul_and_reductions_are_listed_as_untraced() {
        assert!(untraced_runtime_call("_FortranAMatmulReal8Real8"));
        assert!(untraced_runtime_call("_FortranASumReal8"));
        assert!(untraced_runtime_call("_FortranAioOutputDescriptor"));
        assert!(!untraced_runtime_call("_FortranAAssign"));
        assert!(!untraced_runtime_call("_FortranAioOutputReal64"));
        assert!(!untraced_runtime_call("_FortranAProgramStart"));
    }
}
