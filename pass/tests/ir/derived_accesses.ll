; Derived accesses (rdtrace::version::V_DERIVED_ACCESSES): accesses whose address is an
; earlier recorded access's of the same block plus a constant, with no hook between them.
; The expected decisions are in pass/tests/instrument/derived.rs.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.node = type { i32, i64, ptr }

@table = global [8 x i64] zeroinitializer

declare void @opaque()
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.assume(i1)

define i64 @fields(ptr %p, i64 %i) {
entry:
  ; mi 0: recorded, the anchor of %p
  %a = load i32, ptr %p
  ; mi 1: %p + 8 (an i8 GEP): derived from mi 0, +8
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %b = load i64, ptr %q
  ; mi 2: field 2 of a struct GEP (offset 16): derived from mi 0, +16
  %r = getelementptr inbounds %struct.node, ptr %p, i64 0, i32 2
  %c = load ptr, ptr %r
  ; an intrinsic that records nothing is no hook
  call void @llvm.assume(i1 true)
  ; mi 3: a variable index: a base of its own, recorded
  %v = getelementptr inbounds i32, ptr %p, i64 %i
  %w = load i32, ptr %v
  ; mi 4: %v + 4 through a typed GEP: derived from mi 3, +4
  %v1 = getelementptr inbounds i32, ptr %v, i64 1
  store i32 %a, ptr %v1
  ; a call runs hooks: everything before it is forgotten
  call void @opaque()
  ; mi 5: recorded again (after the call)
  %d = load i64, ptr %q
  ; mi 6: %q + 8 = %p + 16: derived from mi 5, +8
  %s = getelementptr inbounds i64, ptr %q, i64 1
  store i64 %d, ptr %s
  ; mi 7: an atomic access is recorded, not derived
  %t = atomicrmw add ptr %p, i32 1 seq_cst
  ; mi 8: another pointer, recorded
  %x = load i32, ptr %c
  ; mi 9: [4 x i32] element 3 of it: derived from mi 8, +12
  %e = getelementptr inbounds [4 x i32], ptr %c, i64 0, i64 3
  store i32 %x, ptr %e
  ; mi 10: a ranged access is a hook
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false)
  ; mi 11: recorded
  %f = load i32, ptr %p
  ; mi 12, 13: a global and a constant GEP of it: 13 derived from 12, +24
  %g0 = load i64, ptr @table
  %g3 = load i64, ptr getelementptr inbounds ([8 x i64], ptr @table, i64 0, i64 3)
  %sum = add i64 %g0, %g3
  br label %next

next:
  ; mi 14: another block: recorded
  %h = load i32, ptr %p
  %z = zext i32 %h to i64
  %res = add i64 %sum, %z
  ret i64 %res
}
