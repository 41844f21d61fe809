; Loop runs (rdtrace::version::V_LOOP_RUNS): single-block loops whose accesses all move by
; constant strides per iteration. The expected decisions are in pass/tests/instrument/loop_runs.rs.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @opaque()
declare double @llvm.fmuladd.f64(double, double, double)

; Loop 0 (qualifies): i64 IV step 2, a[i] (+16), b[i * 3 + 1] (+48), a fixed *c (0), and an
; intrinsic that records nothing. Its exit block %done has another predecessor.
define double @wide(ptr %a, ptr %b, ptr %c, i64 %n, i1 %skip) {
entry:
  br i1 %skip, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %pa
  %k = mul nsw i64 %i, 3
  %k1 = or disjoint i64 %k, 1
  %pb = getelementptr inbounds double, ptr %b, i64 %k1
  %y = load double, ptr %pb
  %z = load double, ptr %c
  %m = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  %s.next = fadd double %s, %m
  %i.next = add nuw nsw i64 %i, 2
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  ret double %r
}

; Loop 1 (qualifies): an i32 IV with `add nsw`, sign-extended, and a store through a pointer
; IV that steps back 4 bytes: +4 and -4. Loop 2 (qualifies, with a wrap check): the same with
; an i32 IV that may wrap: +4, the run ends after an iteration at INT_MAX.
define void @narrow(ptr %a, ptr %end, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = phi ptr [ %end, %entry ], [ %p.next, %loop ]
  %w = sext i32 %i to i64
  %pa = getelementptr inbounds i32, ptr %a, i64 %w
  store i32 %i, ptr %pa
  store i32 %i, ptr %p
  %p.next = getelementptr inbounds i8, ptr %p, i64 -4
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %mid
mid:
  br label %loop2
loop2:
  %j = phi i32 [ 0, %mid ], [ %j.next, %loop2 ]
  %v = sext i32 %j to i64
  %pv = getelementptr inbounds i32, ptr %a, i64 %v
  store i32 %j, ptr %pv
  %j.next = add i32 %j, 1
  %more2 = icmp ne i32 %j.next, %n
  br i1 %more2, label %loop2, label %out
out:
  ret void
}

; Loop 6 (qualifies): a column walk, a[i * %w] (a run-time stride of %w * 8 bytes) beside
; b[i] (+8); its exit stores through a PHI of the loop's last pointer.
define void @columns(ptr %a, ptr %b, i64 %w, i64 %n) {
entry:
  br label %rows
rows:
  %i = phi i64 [ 0, %entry ], [ %i.next, %rows ]
  %k = mul nsw i64 %i, %w
  %pa = getelementptr inbounds double, ptr %a, i64 %k
  %x = load double, ptr %pa
  %pb = getelementptr inbounds double, ptr %b, i64 %i
  store double %x, ptr %pb
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %rows, label %done
done:
  ; The exit's PHIs are rebuilt when its edge gets the run's block: this one is also the
  ; pointer of a recorded access.
  %last = phi ptr [ %pb, %rows ]
  store double 0.0, ptr %last
  ret void
}

; Loop 3 (no): a call runs hooks. Loop 4 (no): a loaded pointer. Loop 5 (no): two blocks.
define void @others(ptr %a, ptr %pp, i64 %n) {
entry:
  br label %calls
calls:
  %i = phi i64 [ 0, %entry ], [ %i.next, %calls ]
  %pa = getelementptr inbounds i64, ptr %a, i64 %i
  store i64 %i, ptr %pa
  call void @opaque()
  %i.next = add i64 %i, 1
  %c1 = icmp ult i64 %i.next, %n
  br i1 %c1, label %calls, label %chase
chase:
  %q = phi ptr [ %pp, %calls ], [ %q.next, %chase ]
  %q.next = load ptr, ptr %q
  %c2 = icmp eq ptr %q.next, null
  br i1 %c2, label %two, label %chase
two:
  %j = phi i64 [ 0, %chase ], [ %j.next, %two.latch ]
  %pj = getelementptr inbounds i64, ptr %a, i64 %j
  store i64 %j, ptr %pj
  br label %two.latch
two.latch:
  %j.next = add i64 %j, 1
  %c3 = icmp ult i64 %j.next, %n
  br i1 %c3, label %two, label %end
end:
  ret void
}

; Loop 7 (qualifies, with two wrap checks): flang's index, `lb + iv` in i32 without nsw, plus
; 1, sign-extended and scaled by a descriptor's byte stride (run-time); beside it an index
; truncated from a 64-bit IV stepping by 3 and offset by INT_MIN (`x ^ sign bit`),
; zero-extended: +24.
define void @flang_like(ptr %a, ptr %b, i64 %bytes, i32 %lb, i32 %trip) {
entry:
  br label %body
body:
  %iv = phi i32 [ 0, %entry ], [ %iv.next, %body ]
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %x = add i32 %iv, %lb
  %x1 = add i32 %x, 1
  %w = sext i32 %x1 to i64
  %off = mul nsw i64 %bytes, %w
  %pa = getelementptr i8, ptr %a, i64 %off
  %v = load double, ptr %pa
  %t = trunc i64 %k to i32
  %u = xor i32 %t, -2147483648
  %z = zext i32 %u to i64
  %pb = getelementptr double, ptr %b, i64 %z
  store double %v, ptr %pb
  %iv.next = add nuw i32 %iv, 1
  %k.next = add nuw nsw i64 %k, 3
  %done = icmp eq i32 %iv, %trip
  br i1 %done, label %out, label %body
out:
  ret void
}
