; Hand-written control flow for loop detection (no debug info):
;   @nested: for i { for j { body } }            -> outer loop (depth 1), inner loop (depth 2)
;   @two_latches: while (c) { if (x) continue; } -> one loop, two back-edges (both unconditional)
;   @self_loop: a block that branches to itself    -> one loop of one block, conditional back-edge
;   @irreducible: a cycle with two entries         -> no loop
target triple = "x86_64-pc-linux-gnu"

define void @nested(i32 %n) {
entry:
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %i.cond = icmp slt i32 %i, %n
  br i1 %i.cond, label %inner, label %exit

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner.body ]
  %j.cond = icmp slt i32 %j, %n
  br i1 %j.cond, label %inner.body, label %outer.latch

inner.body:
  %j.next = add i32 %j, 1
  br label %inner

outer.latch:
  %i.next = add i32 %i, 1
  br label %outer

exit:
  ret void
}

define void @two_latches(i32 %n) {
entry:
  br label %head

head:
  %k = phi i32 [ 0, %entry ], [ %k.odd, %odd ], [ %k.even, %even ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %exit

body:
  %bit = and i32 %k, 1
  %is.odd = icmp ne i32 %bit, 0
  br i1 %is.odd, label %odd, label %even

odd:
  %k.odd = add i32 %k, 1
  br label %head

even:
  %k.even = add i32 %k, 2
  br label %head

exit:
  ret void
}

define void @self_loop(i32 %n) {
entry:
  br label %spin

spin:
  %s = phi i32 [ 0, %entry ], [ %s.next, %spin ]
  %s.next = add i32 %s, 1
  %again = icmp slt i32 %s.next, %n
  br i1 %again, label %spin, label %exit

exit:
  ret void
}

define void @irreducible(i1 %c) {
entry:
  br i1 %c, label %left, label %right

left:
  %l = icmp eq i1 %c, false
  br i1 %l, label %right, label %exit

right:
  %r = icmp eq i1 %c, true
  br i1 %r, label %left, label %exit

exit:
  ret void
}
