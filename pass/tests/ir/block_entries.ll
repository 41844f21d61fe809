; Hand-written control flow that inline block entries (which split every block after its
; countdown test) must keep valid:
;   @guarded: an invoke whose unwind destination starts with a landingpad, and a PHI in the
;             join block whose predecessors are the invoke's block and the catch block;
;   @threaded: computed goto (blockaddress constants, an indirectbr whose targets have PHIs);
;   @spin: a block that loops to itself with a PHI naming itself, after an entry with allocas.
target triple = "x86_64-pc-linux-gnu"

@_ZTISt9exception = external constant ptr
@table = internal constant [3 x ptr] [ptr blockaddress(@threaded, %op.add), ptr blockaddress(@threaded, %op.dec), ptr blockaddress(@threaded, %op.halt)]

define i32 @guarded(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @may_throw(i32 %x)
          to label %join unwind label %pad

pad:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr @_ZTISt9exception
  %sel = extractvalue { ptr, i32 } %lp, 1
  %tid = tail call i32 @llvm.eh.typeid.for.p0(ptr nonnull @_ZTISt9exception)
  %match = icmp eq i32 %sel, %tid
  br i1 %match, label %catch, label %unwind

catch:
  %exn = extractvalue { ptr, i32 } %lp, 0
  %obj = tail call ptr @__cxa_begin_catch(ptr %exn)
  tail call void @__cxa_end_catch()
  br label %join

join:
  %res = phi i32 [ -1, %catch ], [ %r, %entry ]
  ret i32 %res

unwind:
  resume { ptr, i32 } %lp
}

define i64 @threaded(i64 %n, ptr %cells) {
entry:
  %first = load ptr, ptr @table
  indirectbr ptr %first, [label %op.add, label %op.halt]

op.add:
  %acc = phi i64 [ 0, %entry ], [ %acc.dec, %op.dec ]
  %k = phi i64 [ %n, %entry ], [ %k.dec, %op.dec ]
  %acc.add = add i64 %acc, %k
  store i64 %acc.add, ptr %cells
  %next.add = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @table, i64 0, i64 1)
  indirectbr ptr %next.add, [label %op.dec]

op.dec:
  %acc.dec = phi i64 [ %acc.add, %op.add ]
  %k.in = phi i64 [ %k, %op.add ]
  %k.dec = add i64 %k.in, -1
  %more = icmp sgt i64 %k.dec, 0
  %slot = select i1 %more, i64 0, i64 2
  %target.at = getelementptr inbounds [3 x ptr], ptr @table, i64 0, i64 %slot
  %target = load ptr, ptr %target.at
  indirectbr ptr %target, [label %op.add, label %op.halt]

op.halt:
  %acc.end = phi i64 [ 0, %entry ], [ %acc.dec, %op.dec ]
  ret i64 %acc.end
}

define i32 @spin(i32 %n) {
entry:
  %a = alloca i32
  %b = alloca i64
  store i32 0, ptr %a
  br label %loop

loop:
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %v = load i32, ptr %a
  %s.next = add i32 %s, %v
  store i32 %s.next, ptr %a
  %again = icmp slt i32 %s.next, %n
  br i1 %again, label %loop, label %exit

exit:
  ret i32 %s.next
}

declare i32 @may_throw(i32)
declare i32 @__gxx_personality_v0(...)
declare i32 @llvm.eh.typeid.for.p0(ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
