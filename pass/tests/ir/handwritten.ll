; Hand-written shapes clang rarely emits at -O0: volatile, atomic and vector accesses,
; atomicrmw/cmpxchg, a masked load (not traced), a memcpy with an i32 length, a switch, an
; address-space cast, selects/phis/inttoptr for classification, a thread-local global, and an
; existing llvm.global_ctors entry that the pass must keep.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global [16 x i32] zeroinitializer
@tls = thread_local global i32 0
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @user_ctor, ptr null }]

define internal void @user_ctor() {
entry:
  store i32 1, ptr @tls, align 4
  ret void
}

define i32 @accesses(ptr %p, i1 %c, <4 x i1> %mask) {
entry:
  %local = alloca [4 x i32], align 16
  %v = load volatile i32, ptr %p, align 4
  store atomic i32 %v, ptr @g seq_cst, align 4
  %a = load atomic i32, ptr @tls acquire, align 4
  %vec = load <4 x i32>, ptr %local, align 16
  store <4 x i32> %vec, ptr %p, align 4
  %old = atomicrmw add ptr %p, i32 1 seq_cst
  %pair = cmpxchg ptr %local, i32 0, i32 1 seq_cst seq_cst
  %m = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %mask, <4 x i32> zeroinitializer)
  call void @llvm.memcpy.p0.p0.i32(ptr %local, ptr %p, i32 %v, i1 false)
  %mixed = select i1 %c, ptr %local, ptr @g
  %x = load i32, ptr %mixed, align 4
  %second = getelementptr inbounds [4 x i32], ptr %local, i64 0, i64 1
  %same = select i1 %c, ptr %local, ptr %second
  %y = load i32, ptr %same, align 4
  %int = ptrtoint ptr %local to i64
  %int4 = add i64 %int, 4
  %back = inttoptr i64 %int4 to ptr
  %z = load i32, ptr %back, align 4
  %far = addrspacecast ptr %p to ptr addrspace(1)
  %f = load i32, ptr addrspace(1) %far, align 4
  switch i32 %v, label %other [
    i32 0, label %zero
    i32 5, label %five
  ]

zero:
  br label %loop

five:
  br label %loop

other:
  br label %loop

loop:
  %cursor = phi ptr [ %local, %zero ], [ %local, %five ], [ %second, %other ], [ %next, %loop ]
  %next = getelementptr inbounds i32, ptr %cursor, i64 1
  %w = load i32, ptr %cursor, align 4
  %done = icmp eq i32 %w, 0
  br i1 %done, label %exit, label %loop

exit:
  %m0 = extractelement <4 x i32> %m, i64 0
  %sum = add i32 %w, %m0
  ret i32 %sum
}

declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32 immarg, <4 x i1>, <4 x i32>)
declare void @llvm.memcpy.p0.p0.i32(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i32, i1 immarg)
