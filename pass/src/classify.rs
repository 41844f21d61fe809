//! Shared/private classification of memory addresses.
//!
//! The address operand is walked back to a root through GEPs, pointer casts, `freeze`, PHIs and
//! selects (all incoming values must agree, otherwise the address is `Shared` with a "mixed"
//! derivation) and simple `inttoptr(ptrtoint p [+ offset])` round trips. Roots:
//!
//! | root | class | derivation |
//! |---|---|---|
//! | global variable | shared | `global @X` (`thread_local` globals are private) |
//! | call result | shared | `heap via @malloc` |
//! | parameter ≥ 2 of an outlined function | shared | `shared variable argument %x of F` |
//! | parameter 0/1 of an outlined function (gtid/btid pointers) | private | `thread id argument` |
//! | parameter of another function | shared | `argument %x of F, assumed shared` |
//! | `alloca` | private | `alloca %x in F` |
//! | pointer loaded from an `alloca` | class of the pointers stored there, when they agree | `%x loaded -> ...` |
//! | pointer loaded from elsewhere | shared | `pointer loaded from memory at %p -> ` how `%p` was derived |
//!
//! The array a Fortran descriptor describes (the data of a flang runtime call such as
//! `_FortranAAssign`) is classified by [`Classifier::classify_descriptor_data`]: for a descriptor
//! in an `alloca`, the class of the `base_addr` stored into it; otherwise the descriptor
//! pointer's own class.
//!
//! The alloca rule sees through clang `-O0` code, where a shared argument is spilled to
//! `%A.addr = alloca ptr` and reloaded before every use. Parameters of a function that an
//! outlined function calls with its own parameters (the `-O0` `..._debug__` body) are treated as
//! the outlined function's parameters. SASMM needs exactly this split (see: SASMM §3, shared
//! variables labelled in IR): private accesses go to per-core traces, shared ones are
//! interleaved.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use rdtrace::meta::VarClass;

use crate::ir::{self, ValueKind, ValueRef};
use crate::names::ValueNames;
use crate::openmp::OmpAnalysis;

/// Class of an address with the chain of steps that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Derivation {
    /// Shared or private.
    pub class: VarClass,
    /// Steps from the address to its root, e.g. `["%9 loaded", "shared variable argument ..."]`.
    pub steps: Vec<String>,
}

impl Derivation {
    fn root(class: VarClass, step: String) -> Self {
        Self {
            class,
            steps: vec![step],
        }
    }

    fn shared(step: String) -> Self {
        Self::root(VarClass::Shared, step)
    }

    fn prefixed(mut self, step: String) -> Self {
        self.steps.insert(0, step);
        self
    }

    /// The chain as one line: `step -> step -> root`.
    pub(crate) fn text(&self) -> String {
        self.steps.join(" -> ")
    }
}

/// Longest chain followed before giving up (deep GEP/PHI webs in generated code).
const MAX_DEPTH: u32 = 64;

/// Classifies addresses of one module, memoising per value.
pub(crate) struct Classifier<'a> {
    names: &'a ValueNames,
    omp: &'a OmpAnalysis<'a>,
    memo: HashMap<ValueRef, Derivation>,
    /// Values on the current walk, to cut PHI cycles.
    active: HashSet<ValueRef>,
}

impl<'a> Classifier<'a> {
    /// A classifier using the module's value names and OpenMP analysis.
    pub(crate) fn new(names: &'a ValueNames, omp: &'a OmpAnalysis<'a>) -> Self {
        Self {
            names,
            omp,
            memo: HashMap::new(),
            active: HashSet::new(),
        }
    }

    /// Classifies the address `ptr`.
    pub(crate) fn classify(&mut self, ptr: ValueRef) -> Derivation {
        self.trace(ptr, 0)
            .unwrap_or_else(|| Derivation::shared("cyclic pointer".into()))
    }

    /// Classifies the array a Fortran descriptor at `desc` describes (the data a flang runtime
    /// call reads or writes, see [`crate::fortran`]). A descriptor in an `alloca` is filled in
    /// place by the code that calls the runtime (at `-O2` field by field), so the array is what
    /// was stored in its first field, `base_addr`; any other descriptor (a global, an argument,
    /// a loaded pointer) is classified like an address, since the array is reached through it.
    pub(crate) fn classify_descriptor_data(&mut self, desc: ValueRef) -> Derivation {
        let slot = ir::strip_pointer_casts(desc);
        let label = format!("base_addr of descriptor {}", self.names.value(slot));
        if ir::value_kind(slot) != ValueKind::Alloca {
            let d = self.classify(desc);
            return d.prefixed(label);
        }
        // At `-O2` the first field is stored on its own; at `-O0` the whole descriptor is
        // stored as one aggregate built by a chain of `insertvalue`s.
        let stored: Vec<ValueRef> = ir::stores_to(slot)
            .into_iter()
            .filter_map(|s| ir::operand(s, 0))
            .filter_map(|v| {
                if ir::type_kind(ir::type_of(v)) == LLVMTypeKind::LLVMPointerTypeKind {
                    Some(v)
                } else {
                    first_field(v)
                }
            })
            .collect();
        if stored.is_empty() {
            return Derivation::shared(format!("{label} not stored as a pointer, assumed shared"));
        }
        let found: Vec<Derivation> = stored.iter().filter_map(|&s| self.trace(s, 1)).collect();
        let Some(first) = found.first().cloned() else {
            return Derivation::shared(format!("{label}: cyclic pointer"));
        };
        if found.iter().all(|d| d.class == first.class) {
            first.prefixed(label)
        } else {
            Derivation::shared(format!(
                "{label}: mixed (shared and private pointers stored)"
            ))
        }
    }

    /// `None` when `v` is already on the walk (a PHI cycle contributes no new root).
    fn trace(&mut self, v: ValueRef, depth: u32) -> Option<Derivation> {
        if let Some(d) = self.memo.get(&v) {
            return Some(d.clone());
        }
        if depth > MAX_DEPTH {
            return Some(Derivation::shared("derivation too deep".into()));
        }
        if !self.active.insert(v) {
            return None;
        }
        let result = self.trace_uncached(v, depth);
        self.active.remove(&v);
        if let Some(d) = &result {
            self.memo.insert(v, d.clone());
        }
        result
    }

    fn trace_uncached(&mut self, v: ValueRef, depth: u32) -> Option<Derivation> {
        let name = |v| self.names.value(v);
        match ir::opcode(v) {
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast
                | LLVMOpcode::LLVMFreeze,
            ) => return self.trace(ir::operand(v, 0)?, depth + 1),
            Some(LLVMOpcode::LLVMIntToPtr) => {
                return match int_source_pointer(ir::operand(v, 0)?) {
                    Some(p) => self.trace(p, depth + 1),
                    None => Some(Derivation::shared(format!(
                        "integer {} cast to pointer",
                        name(v)
                    ))),
                };
            }
            _ => {}
        }
        Some(match ir::value_kind(v) {
            ValueKind::GlobalVariable if ir::is_thread_local(v) => Derivation::root(
                VarClass::Private,
                format!("thread-local global {}", name(v)),
            ),
            ValueKind::GlobalVariable | ValueKind::OtherGlobal | ValueKind::Function => {
                Derivation::shared(format!("global {}", name(v)))
            }
            ValueKind::Alloca => {
                let f = ir::instruction_function(v)
                    .map(ir::value_name)
                    .unwrap_or_default();
                Derivation::root(VarClass::Private, format!("alloca {} in {f}", name(v)))
            }
            ValueKind::Argument => self.argument(v),
            ValueKind::Call => {
                // Safety: `v` is a live call or invoke instruction, which is what
                // `InstructionValue` wraps.
                let inst = unsafe { inkwell::values::InstructionValue::new(v) };
                match ir::called_function(inst) {
                    Some(f) => Derivation::shared(format!("heap via @{}", ir::function_name(f))),
                    None => Derivation::shared("pointer returned by an indirect call".into()),
                }
            }
            ValueKind::Phi => {
                let incoming = ir::phi_incoming(v);
                return self.agree(v, &incoming, depth, "phi");
            }
            ValueKind::Select => {
                let arms = [ir::operand(v, 1)?, ir::operand(v, 2)?];
                return self.agree(v, &arms, depth, "select");
            }
            ValueKind::Load => return self.loaded_pointer(v, depth),
            ValueKind::NullOrUndef | ValueKind::OtherConstant => {
                Derivation::shared("constant address".into())
            }
            ValueKind::OtherInstruction => {
                Derivation::shared(format!("address computed by {}", name(v)))
            }
        })
    }

    /// Roots at function parameters.
    fn argument(&self, arg: ValueRef) -> Derivation {
        let Some((func, index)) = ir::argument_position(arg) else {
            return Derivation::shared("argument, assumed shared".into());
        };
        let fname = ir::value_name(func);
        let arg_name = self.names.value(arg);
        if self.omp.outlined_raw.contains(&func) {
            return self.outlined_parameter(func, index, &arg_name);
        }
        if let Some(&(outlined, k)) = self.omp.forwarded_params.get(&(func, index)) {
            let outlined_arg = ir::function_param(outlined, k);
            let outlined_name = outlined_arg
                .map(|a| self.names.value(a))
                .unwrap_or_default();
            return self
                .outlined_parameter(outlined, k, &outlined_name)
                .prefixed(format!("argument {arg_name} of {fname}"));
        }
        Derivation::shared(format!("argument {arg_name} of {fname}, assumed shared"))
    }

    fn outlined_parameter(&self, func: ValueRef, index: u32, arg_name: &str) -> Derivation {
        let fname = ir::value_name(func);
        if index < 2 {
            // The first two parameters point at the thread's global/bound thread id.
            Derivation::root(
                VarClass::Private,
                format!("thread id argument {arg_name} of {fname}"),
            )
        } else {
            Derivation::shared(format!("shared variable argument {arg_name} of {fname}"))
        }
    }

    /// All traced inputs must agree on the class; cycles are ignored.
    fn agree(
        &mut self,
        v: ValueRef,
        inputs: &[ValueRef],
        depth: u32,
        what: &str,
    ) -> Option<Derivation> {
        let found: Vec<Derivation> = inputs
            .iter()
            .filter_map(|&i| self.trace(i, depth + 1))
            .collect();
        let first = found.first()?.clone();
        let label = format!("{what} {}", self.names.value(v));
        if found.iter().all(|d| d.class == first.class) {
            Some(first.prefixed(label))
        } else {
            Some(Derivation::shared(format!(
                "{label} mixed (shared and private inputs)"
            )))
        }
    }

    /// A pointer that was itself loaded from memory.
    fn loaded_pointer(&mut self, load: ValueRef, depth: u32) -> Option<Derivation> {
        let addr = ir::operand(load, 0)?;
        let slot = ir::strip_pointer_casts(addr);
        let slot_name = self.names.value(slot);
        if ir::value_kind(slot) != ValueKind::Alloca {
            // The pointer's origin is unknown, but where it was loaded from still helps the
            // reader (`a[i]` where `a` is a shared variable), so that chain is appended.
            let label = format!("pointer loaded from memory at {slot_name}");
            return Some(match self.trace(slot, depth + 1) {
                Some(d) => Derivation {
                    class: VarClass::Shared,
                    steps: d.steps,
                }
                .prefixed(label),
                None => Derivation::shared(label),
            });
        }
        let stored: Vec<ValueRef> = ir::stores_to(slot)
            .into_iter()
            .filter_map(|s| ir::operand(s, 0))
            .collect();
        if stored.is_empty() {
            return Some(Derivation::shared(format!(
                "pointer loaded from {slot_name}, never stored"
            )));
        }
        let found: Vec<Derivation> = stored
            .iter()
            .filter_map(|&s| self.trace(s, depth + 1))
            .collect();
        let first = found.first()?.clone();
        let label = format!("{slot_name} loaded");
        if found.iter().all(|d| d.class == first.class) {
            Some(first.prefixed(label))
        } else {
            Some(Derivation::shared(format!(
                "{label}: mixed (shared and private pointers stored)"
            )))
        }
    }
}

/// The value inserted as field 0 of an aggregate built by a chain of `insertvalue`s.
fn first_field(mut aggregate: ValueRef) -> Option<ValueRef> {
    for _ in 0..MAX_DEPTH {
        if ir::opcode(aggregate) != Some(LLVMOpcode::LLVMInsertValue) {
            return None;
        }
        if ir::aggregate_indices(aggregate) == [0] {
            return ir::operand(aggregate, 1);
        }
        aggregate = ir::operand(aggregate, 0)?;
    }
    None
}

/// The pointer an integer was computed from: `ptrtoint p`, or `ptrtoint p` plus/minus/masked by
/// an integer that is not itself a pointer.
fn int_source_pointer(int: ValueRef) -> Option<ValueRef> {
    match ir::opcode(int)? {
        LLVMOpcode::LLVMPtrToInt => ir::operand(int, 0),
        LLVMOpcode::LLVMAdd | LLVMOpcode::LLVMSub | LLVMOpcode::LLVMAnd | LLVMOpcode::LLVMOr => {
            let a = ir::operand(int, 0)?;
            let b = ir::operand(int, 1)?;
            let is_p2i = |x| ir::opcode(x) == Some(LLVMOpcode::LLVMPtrToInt);
            match (is_p2i(a), is_p2i(b)) {
                (true, false) => ir::operand(a, 0),
                (false, true) if ir::opcode(int) != Some(LLVMOpcode::LLVMSub) => ir::operand(b, 0),
                _ => None,
            }
        }
        _ => None,
    }
}
