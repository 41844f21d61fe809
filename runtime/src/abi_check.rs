//! Compile-time check of the runtime's side of the hook contract: every hook of
//! [`rdtrace::for_each_hook!`] must be defined in this crate under exactly its table name with
//! exactly its table parameter types (a rename or a changed parameter fails to compile here; the
//! pass declares the hooks from the same table).

macro_rules! assert_hooks_defined {
    ($( $(#[$doc:meta])* $konst:ident, $field:ident : $sym:ident ( $($p:ident : $t:ty),* ); )*) => {
        $(
            const _: unsafe extern "C" fn($($t),*) = crate::$sym;
        )*
    };
}

rdtrace::for_each_hook!(assert_hooks_defined);
