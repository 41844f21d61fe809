; ModuleID = 'FIRModule'
source_filename = "FIRModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

$_QQclXb13bcc9fd26dd728b1c2553343637986 = comdat any

@_QFEm.0 = internal unnamed_addr global ptr null, !dbg !0
@_QFEp = internal global { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)], [3 x i64] [i64 1, i64 0, i64 0]] }, !dbg !9
@_QFEx = internal global { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, !dbg !16
@_QFEy = internal global { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, !dbg !20
@_QQclXb13bcc9fd26dd728b1c2553343637986 = linkonce constant [41 x i8] c"/work/main/pass/tests/ir/omp_fortran.f90\00", comdat
@0 = private unnamed_addr constant [25 x i8] c";FIRModule;scale;14;11;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 24, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 24, ptr @0 }, align 8
@3 = private unnamed_addr constant [23 x i8] c";FIRModule;dyn;24;11;;\00", align 1
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @3 }, align 8
@5 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @3 }, align 8
@6 = private unnamed_addr constant [25 x i8] c";FIRModule;total;35;11;;\00", align 1
@7 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 24, ptr @6 }, align 8
@8 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 24, ptr @6 }, align 8
@9 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@10 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @9 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8
@11 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 22, ptr @9 }, align 8
@12 = private unnamed_addr constant [26 x i8] c";FIRModule;phases;45;11;;\00", align 1
@13 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 25, ptr @12 }, align 8
@14 = private unnamed_addr constant [26 x i8] c";FIRModule;phases;46;11;;\00", align 1
@15 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 25, ptr @14 }, align 8
@16 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 25, ptr @14 }, align 8
@17 = private unnamed_addr constant [26 x i8] c";FIRModule;phases;51;11;;\00", align 1
@18 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 25, ptr @17 }, align 8
@19 = private unnamed_addr constant %struct.ident_t { i32 0, i32 66, i32 0, i32 25, ptr @17 }, align 8

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr nocapture noundef) local_unnamed_addr #0

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #1

; Function Attrs: nounwind
define void @_QMkernelsPscale(ptr %0, ptr %1) local_unnamed_addr #2 !dbg !26 {
entry:
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %2 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !31
    #dbg_declare(ptr %0, !32, !DIExpression(), !33)
  %3 = getelementptr i8, ptr %0, i64 32, !dbg !31
  %4 = load i64, ptr %3, align 8, !dbg !31, !tbaa !34
  %5 = getelementptr i8, ptr %0, i64 40, !dbg !31
  %6 = load i64, ptr %5, align 8, !dbg !31, !tbaa !34
  %7 = load ptr, ptr %0, align 8, !dbg !31, !tbaa !34
  store ptr %7, ptr %2, align 8, !dbg !31, !tbaa !34
  %.fca.1.gep = getelementptr inbounds i8, ptr %2, i64 8, !dbg !31
  store i64 8, ptr %.fca.1.gep, align 8, !dbg !31, !tbaa !34
  %.fca.2.gep = getelementptr inbounds i8, ptr %2, i64 16, !dbg !31
  store i32 20180515, ptr %.fca.2.gep, align 8, !dbg !31, !tbaa !34
  %.fca.3.gep = getelementptr inbounds i8, ptr %2, i64 20, !dbg !31
  store i8 1, ptr %.fca.3.gep, align 4, !dbg !31, !tbaa !34
  %.fca.4.gep = getelementptr inbounds i8, ptr %2, i64 21, !dbg !31
  store i8 28, ptr %.fca.4.gep, align 1, !dbg !31, !tbaa !34
  %.fca.5.gep = getelementptr inbounds i8, ptr %2, i64 22, !dbg !31
  store i8 0, ptr %.fca.5.gep, align 2, !dbg !31, !tbaa !34
  %.fca.6.gep = getelementptr inbounds i8, ptr %2, i64 23, !dbg !31
  store i8 0, ptr %.fca.6.gep, align 1, !dbg !31, !tbaa !34
  %.fca.7.0.0.gep = getelementptr inbounds i8, ptr %2, i64 24, !dbg !31
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !dbg !31, !tbaa !34
  %.fca.7.0.1.gep = getelementptr inbounds i8, ptr %2, i64 32, !dbg !31
  store i64 %4, ptr %.fca.7.0.1.gep, align 8, !dbg !31, !tbaa !34
  %.fca.7.0.2.gep = getelementptr inbounds i8, ptr %2, i64 40, !dbg !31
  store i64 %6, ptr %.fca.7.0.2.gep, align 8, !dbg !31, !tbaa !34
    #dbg_declare(ptr %1, !38, !DIExpression(), !33)
    #dbg_declare(ptr undef, !39, !DIExpression(), !41)
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1), !dbg !42
  store ptr %2, ptr %structArg, align 8
  %gep_5 = getelementptr inbounds i8, ptr %structArg, i64 8
  store ptr %0, ptr %gep_5, align 8
  %gep_6 = getelementptr inbounds i8, ptr %structArg, i64 16
  store ptr %1, ptr %gep_6, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @1, i32 1, ptr nonnull @_QMkernelsPscale..omp_par, ptr nonnull %structArg), !dbg !41
  ret void, !dbg !43
}

; Function Attrs: nounwind
define internal void @_QMkernelsPscale..omp_par(ptr noalias nocapture readnone %tid.addr, ptr noalias nocapture readnone %zero.addr, ptr nocapture readonly %0) #2 !dbg !44 {
omp.par.entry:
  %loadgep_ = load ptr, ptr %0, align 8
  %gep_1 = getelementptr i8, ptr %0, i64 8
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr i8, ptr %0, i64 16
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %1 = getelementptr i8, ptr %loadgep_, i64 32, !dbg !46
  %2 = load i64, ptr %1, align 8, !dbg !46, !tbaa !34
  %3 = trunc i64 %2 to i32, !dbg !46
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %3, i32 0), !dbg !47
  store i32 0, ptr %p.lowerbound, align 4
  %4 = add nsw i32 %omp_loop.tripcount, -1
  store i32 %4, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num4 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1), !dbg !47
  call void @__kmpc_for_static_init_4u(ptr nonnull @1, i32 %omp_global_thread_num4, i32 34, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride, i32 1, i32 0)
  %5 = load i32, ptr %p.lowerbound, align 4
  %6 = load i32, ptr %p.upperbound, align 4
  %reass.sub = sub i32 %6, %5
  %omp_loop.cmp5.not = icmp eq i32 %reass.sub, -1
  br i1 %omp_loop.cmp5.not, label %omp_loop.exit, label %omp_loop.body.lr.ph

omp_loop.body.lr.ph:                              ; preds = %omp.par.entry
  %7 = add i32 %5, 1
  %8 = getelementptr i8, ptr %loadgep_2, i64 40
  %9 = load i64, ptr %8, align 8, !tbaa !34
  %10 = load ptr, ptr %loadgep_2, align 8, !tbaa !34
  %11 = load double, ptr %loadgep_4, align 8, !tbaa !48
  %12 = add i32 %6, 1
  %13 = sub i32 %12, %5
  %xtraiter = and i32 %13, 1
  %14 = icmp eq i32 %6, %5
  br i1 %14, label %omp_loop.exit.loopexit.unr-lcssa, label %omp_loop.body.lr.ph.new

omp_loop.body.lr.ph.new:                          ; preds = %omp_loop.body.lr.ph
  %unroll_iter = and i32 %13, -2
  br label %omp_loop.body

omp_loop.exit.loopexit.unr-lcssa:                 ; preds = %omp_loop.body, %omp_loop.body.lr.ph
  %omp_loop.iv6.unr = phi i32 [ 0, %omp_loop.body.lr.ph ], [ %omp_loop.next.1, %omp_loop.body ]
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %omp_loop.exit, label %omp_loop.body.epil

omp_loop.body.epil:                               ; preds = %omp_loop.exit.loopexit.unr-lcssa
  %15 = add i32 %7, %omp_loop.iv6.unr
    #dbg_value(i32 %15, !52, !DIExpression(), !53)
  %16 = sext i32 %15 to i64, !dbg !54
  %17 = add nsw i64 %16, -1, !dbg !54
  %18 = mul nsw i64 %9, %17, !dbg !54
  %19 = getelementptr i8, ptr %10, i64 %18, !dbg !54
  %20 = load double, ptr %19, align 8, !dbg !54, !tbaa !55
  %21 = fmul contract double %20, %11, !dbg !54
  store double %21, ptr %19, align 8, !dbg !54, !tbaa !55
  br label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.body.epil, %omp_loop.exit.loopexit.unr-lcssa, %omp.par.entry
  call void @__kmpc_for_static_fini(ptr nonnull @1, i32 %omp_global_thread_num4)
  call void @__kmpc_barrier(ptr nonnull @2, i32 %omp_global_thread_num4), !dbg !47
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body, %omp_loop.body.lr.ph.new
  %omp_loop.iv6 = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %omp_loop.next.1, %omp_loop.body ]
  %niter = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %niter.next.1, %omp_loop.body ]
  %22 = add i32 %7, %omp_loop.iv6
    #dbg_value(i32 %22, !52, !DIExpression(), !53)
  %23 = sext i32 %22 to i64, !dbg !54
  %24 = add nsw i64 %23, -1, !dbg !54
  %25 = mul nsw i64 %9, %24, !dbg !54
  %26 = getelementptr i8, ptr %10, i64 %25, !dbg !54
  %27 = load double, ptr %26, align 8, !dbg !54, !tbaa !55
  %28 = fmul contract double %27, %11, !dbg !54
  store double %28, ptr %26, align 8, !dbg !54, !tbaa !55
  %omp_loop.next = or disjoint i32 %omp_loop.iv6, 1
  %29 = add i32 %7, %omp_loop.next
    #dbg_value(i32 %29, !52, !DIExpression(), !53)
  %30 = sext i32 %29 to i64, !dbg !54
  %31 = add nsw i64 %30, -1, !dbg !54
  %32 = mul nsw i64 %9, %31, !dbg !54
  %33 = getelementptr i8, ptr %10, i64 %32, !dbg !54
  %34 = load double, ptr %33, align 8, !dbg !54, !tbaa !55
  %35 = fmul contract double %34, %11, !dbg !54
  store double %35, ptr %33, align 8, !dbg !54, !tbaa !55
  %omp_loop.next.1 = add nuw i32 %omp_loop.iv6, 2
  %niter.next.1 = add i32 %niter, 2
  %niter.ncmp.1 = icmp eq i32 %niter.next.1, %unroll_iter
  br i1 %niter.ncmp.1, label %omp_loop.exit.loopexit.unr-lcssa, label %omp_loop.body
}

; Function Attrs: nounwind
define void @_QMkernelsPdyn(ptr %0, ptr %1) local_unnamed_addr #2 !dbg !57 {
entry:
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %2 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !60
    #dbg_declare(ptr %0, !61, !DIExpression(), !62)
  %3 = getelementptr i8, ptr %0, i64 32, !dbg !60
  %4 = load i64, ptr %3, align 8, !dbg !60, !tbaa !63
  %5 = getelementptr i8, ptr %0, i64 40, !dbg !60
  %6 = load i64, ptr %5, align 8, !dbg !60, !tbaa !63
  %7 = load ptr, ptr %0, align 8, !dbg !60, !tbaa !63
  store ptr %7, ptr %2, align 8, !dbg !60, !tbaa !63
  %.fca.1.gep = getelementptr inbounds i8, ptr %2, i64 8, !dbg !60
  store i64 8, ptr %.fca.1.gep, align 8, !dbg !60, !tbaa !63
  %.fca.2.gep = getelementptr inbounds i8, ptr %2, i64 16, !dbg !60
  store i32 20180515, ptr %.fca.2.gep, align 8, !dbg !60, !tbaa !63
  %.fca.3.gep = getelementptr inbounds i8, ptr %2, i64 20, !dbg !60
  store i8 1, ptr %.fca.3.gep, align 4, !dbg !60, !tbaa !63
  %.fca.4.gep = getelementptr inbounds i8, ptr %2, i64 21, !dbg !60
  store i8 28, ptr %.fca.4.gep, align 1, !dbg !60, !tbaa !63
  %.fca.5.gep = getelementptr inbounds i8, ptr %2, i64 22, !dbg !60
  store i8 0, ptr %.fca.5.gep, align 2, !dbg !60, !tbaa !63
  %.fca.6.gep = getelementptr inbounds i8, ptr %2, i64 23, !dbg !60
  store i8 0, ptr %.fca.6.gep, align 1, !dbg !60, !tbaa !63
  %.fca.7.0.0.gep = getelementptr inbounds i8, ptr %2, i64 24, !dbg !60
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !dbg !60, !tbaa !63
  %.fca.7.0.1.gep = getelementptr inbounds i8, ptr %2, i64 32, !dbg !60
  store i64 %4, ptr %.fca.7.0.1.gep, align 8, !dbg !60, !tbaa !63
  %.fca.7.0.2.gep = getelementptr inbounds i8, ptr %2, i64 40, !dbg !60
  store i64 %6, ptr %.fca.7.0.2.gep, align 8, !dbg !60, !tbaa !63
    #dbg_declare(ptr %1, !67, !DIExpression(), !62)
    #dbg_declare(ptr undef, !68, !DIExpression(), !69)
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @4), !dbg !70
  store ptr %2, ptr %structArg, align 8
  %gep_5 = getelementptr inbounds i8, ptr %structArg, i64 8
  store ptr %0, ptr %gep_5, align 8
  %gep_6 = getelementptr inbounds i8, ptr %structArg, i64 16
  store ptr %1, ptr %gep_6, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 1, ptr nonnull @_QMkernelsPdyn..omp_par, ptr nonnull %structArg), !dbg !69
  ret void, !dbg !71
}

; Function Attrs: nounwind
define internal void @_QMkernelsPdyn..omp_par(ptr noalias nocapture readnone %tid.addr, ptr noalias nocapture readnone %zero.addr, ptr nocapture readonly %0) #2 !dbg !72 {
omp.par.entry:
  %loadgep_ = load ptr, ptr %0, align 8
  %gep_1 = getelementptr i8, ptr %0, i64 8
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr i8, ptr %0, i64 16
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %1 = getelementptr i8, ptr %loadgep_, i64 32, !dbg !73
  %2 = load i64, ptr %1, align 8, !dbg !73, !tbaa !63
  %3 = trunc i64 %2 to i32, !dbg !73
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %3, i32 0), !dbg !74
  store i32 1, ptr %p.lowerbound, align 4
  store i32 %omp_loop.tripcount, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num4 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @4), !dbg !74
  tail call void @__kmpc_dispatch_init_4u(ptr nonnull @4, i32 %omp_global_thread_num4, i32 1073741859, i32 1, i32 %omp_loop.tripcount, i32 1, i32 4)
  %4 = call i32 @__kmpc_dispatch_next_4u(ptr nonnull @4, i32 %omp_global_thread_num4, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride)
  %.not7 = icmp eq i32 %4, 0
  br i1 %.not7, label %omp_loop.exit, label %omp_loop.header.preheader.lr.ph

omp_loop.header.preheader.lr.ph:                  ; preds = %omp.par.entry
  %5 = getelementptr i8, ptr %loadgep_2, i64 40
  %6 = getelementptr i8, ptr %loadgep_4, i64 40
  br label %omp_loop.header.preheader

omp_loop.preheader.outer.cond.loopexit:           ; preds = %omp_loop.body.prol.loopexit, %omp_loop.body, %omp_loop.header.preheader
  %7 = call i32 @__kmpc_dispatch_next_4u(ptr nonnull @4, i32 %omp_global_thread_num4, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride)
  %.not = icmp eq i32 %7, 0
  br i1 %.not, label %omp_loop.exit, label %omp_loop.header.preheader

omp_loop.header.preheader:                        ; preds = %omp_loop.header.preheader.lr.ph, %omp_loop.preheader.outer.cond.loopexit
  %lb9.in = load i32, ptr %p.lowerbound, align 4
  %lb9 = add i32 %lb9.in, -1
  %ub = load i32, ptr %p.upperbound, align 4
  %omp_loop.cmp5 = icmp ult i32 %lb9, %ub
  br i1 %omp_loop.cmp5, label %omp_loop.body.lr.ph, label %omp_loop.preheader.outer.cond.loopexit

omp_loop.body.lr.ph:                              ; preds = %omp_loop.header.preheader
  %8 = load i64, ptr %5, align 8, !tbaa !63
  %9 = load ptr, ptr %loadgep_2, align 8, !tbaa !63
  %10 = load i64, ptr %6, align 8, !tbaa !63
  %11 = load ptr, ptr %loadgep_4, align 8, !tbaa !63
  %12 = add i32 %ub, %lb9.in
  %13 = and i32 %12, 1
  %lcmp.mod.not.not = icmp eq i32 %13, 0
  br i1 %lcmp.mod.not.not, label %omp_loop.body.prol, label %omp_loop.body.prol.loopexit

omp_loop.body.prol:                               ; preds = %omp_loop.body.lr.ph
    #dbg_value(i32 %lb9.in, !75, !DIExpression(), !76)
  %14 = sext i32 %lb9.in to i64, !dbg !77
  %15 = add nsw i64 %14, -1, !dbg !77
  %16 = mul nsw i64 %8, %15, !dbg !77
  %17 = getelementptr i8, ptr %9, i64 %16, !dbg !77
  %18 = load double, ptr %17, align 8, !dbg !77, !tbaa !78
  %19 = mul nsw i64 %10, %15, !dbg !77
  %20 = getelementptr i8, ptr %11, i64 %19, !dbg !77
  %21 = load double, ptr %20, align 8, !dbg !77, !tbaa !82
  %22 = fadd contract double %18, %21, !dbg !77
  store double %22, ptr %17, align 8, !dbg !77, !tbaa !78
  br label %omp_loop.body.prol.loopexit

omp_loop.body.prol.loopexit:                      ; preds = %omp_loop.body.prol, %omp_loop.body.lr.ph
  %omp_loop.iv6.unr = phi i32 [ %lb9, %omp_loop.body.lr.ph ], [ %lb9.in, %omp_loop.body.prol ]
  %23 = icmp eq i32 %ub, %lb9.in
  br i1 %23, label %omp_loop.preheader.outer.cond.loopexit, label %omp_loop.body

omp_loop.exit:                                    ; preds = %omp_loop.preheader.outer.cond.loopexit, %omp.par.entry
  call void @__kmpc_barrier(ptr nonnull @5, i32 %omp_global_thread_num4), !dbg !74
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body.prol.loopexit, %omp_loop.body
  %omp_loop.iv6 = phi i32 [ %34, %omp_loop.body ], [ %omp_loop.iv6.unr, %omp_loop.body.prol.loopexit ]
  %24 = add nuw i32 %omp_loop.iv6, 1
    #dbg_value(i32 %24, !75, !DIExpression(), !76)
  %25 = sext i32 %24 to i64, !dbg !77
  %26 = add nsw i64 %25, -1, !dbg !77
  %27 = mul nsw i64 %8, %26, !dbg !77
  %28 = getelementptr i8, ptr %9, i64 %27, !dbg !77
  %29 = load double, ptr %28, align 8, !dbg !77, !tbaa !78
  %30 = mul nsw i64 %10, %26, !dbg !77
  %31 = getelementptr i8, ptr %11, i64 %30, !dbg !77
  %32 = load double, ptr %31, align 8, !dbg !77, !tbaa !82
  %33 = fadd contract double %29, %32, !dbg !77
  store double %33, ptr %28, align 8, !dbg !77, !tbaa !78
  %34 = add nuw i32 %omp_loop.iv6, 2
    #dbg_value(i32 %34, !75, !DIExpression(), !76)
  %35 = sext i32 %34 to i64, !dbg !77
  %36 = add nsw i64 %35, -1, !dbg !77
  %37 = mul nsw i64 %8, %36, !dbg !77
  %38 = getelementptr i8, ptr %9, i64 %37, !dbg !77
  %39 = load double, ptr %38, align 8, !dbg !77, !tbaa !78
  %40 = mul nsw i64 %10, %36, !dbg !77
  %41 = getelementptr i8, ptr %11, i64 %40, !dbg !77
  %42 = load double, ptr %41, align 8, !dbg !77, !tbaa !82
  %43 = fadd contract double %39, %42, !dbg !77
  store double %43, ptr %38, align 8, !dbg !77, !tbaa !78
  %exitcond.not.1 = icmp eq i32 %34, %ub
  br i1 %exitcond.not.1, label %omp_loop.preheader.outer.cond.loopexit, label %omp_loop.body
}

; Function Attrs: nounwind
define double @_QMkernelsPtotal(ptr %0) local_unnamed_addr #2 !dbg !84 {
entry:
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %1 = alloca double, align 8, !dbg !87
  %2 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !88
    #dbg_declare(ptr %0, !89, !DIExpression(), !90)
  %3 = getelementptr i8, ptr %0, i64 32, !dbg !88
  %4 = load i64, ptr %3, align 8, !dbg !88, !tbaa !91
  %5 = getelementptr i8, ptr %0, i64 40, !dbg !88
  %6 = load i64, ptr %5, align 8, !dbg !88, !tbaa !91
  %7 = load ptr, ptr %0, align 8, !dbg !88, !tbaa !91
  store ptr %7, ptr %2, align 8, !dbg !88, !tbaa !91
  %.fca.1.gep = getelementptr inbounds i8, ptr %2, i64 8, !dbg !88
  store i64 8, ptr %.fca.1.gep, align 8, !dbg !88, !tbaa !91
  %.fca.2.gep = getelementptr inbounds i8, ptr %2, i64 16, !dbg !88
  store i32 20180515, ptr %.fca.2.gep, align 8, !dbg !88, !tbaa !91
  %.fca.3.gep = getelementptr inbounds i8, ptr %2, i64 20, !dbg !88
  store i8 1, ptr %.fca.3.gep, align 4, !dbg !88, !tbaa !91
  %.fca.4.gep = getelementptr inbounds i8, ptr %2, i64 21, !dbg !88
  store i8 28, ptr %.fca.4.gep, align 1, !dbg !88, !tbaa !91
  %.fca.5.gep = getelementptr inbounds i8, ptr %2, i64 22, !dbg !88
  store i8 0, ptr %.fca.5.gep, align 2, !dbg !88, !tbaa !91
  %.fca.6.gep = getelementptr inbounds i8, ptr %2, i64 23, !dbg !88
  store i8 0, ptr %.fca.6.gep, align 1, !dbg !88, !tbaa !91
  %.fca.7.0.0.gep = getelementptr inbounds i8, ptr %2, i64 24, !dbg !88
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !dbg !88, !tbaa !91
  %.fca.7.0.1.gep = getelementptr inbounds i8, ptr %2, i64 32, !dbg !88
  store i64 %4, ptr %.fca.7.0.1.gep, align 8, !dbg !88, !tbaa !91
  %.fca.7.0.2.gep = getelementptr inbounds i8, ptr %2, i64 40, !dbg !88
  store i64 %6, ptr %.fca.7.0.2.gep, align 8, !dbg !88, !tbaa !91
    #dbg_declare(ptr undef, !95, !DIExpression(), !96)
    #dbg_value(double 0.000000e+00, !97, !DIExpression(), !98)
  store double 0.000000e+00, ptr %1, align 8, !dbg !99, !tbaa !100
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @7), !dbg !102
  store ptr %2, ptr %structArg, align 8
  %gep_7 = getelementptr inbounds i8, ptr %structArg, i64 8
  store ptr %1, ptr %gep_7, align 8
  %gep_8 = getelementptr inbounds i8, ptr %structArg, i64 16
  store ptr %0, ptr %gep_8, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @7, i32 1, ptr nonnull @_QMkernelsPtotal..omp_par, ptr nonnull %structArg), !dbg !96
  %8 = load double, ptr %1, align 8, !dbg !103, !tbaa !100
    #dbg_value(double %8, !97, !DIExpression(), !98)
  ret double %8, !dbg !103
}

; Function Attrs: nounwind
define internal void @_QMkernelsPtotal..omp_par(ptr noalias nocapture readnone %tid.addr, ptr noalias nocapture readnone %zero.addr, ptr nocapture readonly %0) #2 !dbg !104 {
omp.par.entry:
  %loadgep_ = load ptr, ptr %0, align 8
  %gep_1 = getelementptr i8, ptr %0, i64 8
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr i8, ptr %0, i64 16
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %1 = alloca double, align 8
  %red.array = alloca [1 x ptr], align 8
  %2 = getelementptr i8, ptr %loadgep_, i64 32, !dbg !105
  %3 = load i64, ptr %2, align 8, !dbg !105, !tbaa !91
  %4 = trunc i64 %3 to i32, !dbg !105
    #dbg_value(double 0.000000e+00, !106, !DIExpression(), !107)
  store double 0.000000e+00, ptr %1, align 8, !dbg !108
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %4, i32 0), !dbg !108
  store i32 0, ptr %p.lowerbound, align 4
  %5 = add nsw i32 %omp_loop.tripcount, -1
  store i32 %5, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num6 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @10)
  call void @__kmpc_for_static_init_4u(ptr nonnull @7, i32 %omp_global_thread_num6, i32 34, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride, i32 1, i32 0)
  %6 = load i32, ptr %p.lowerbound, align 4
  %7 = load i32, ptr %p.upperbound, align 4
  %reass.sub = sub i32 %7, %6
  %omp_loop.cmp5.not = icmp eq i32 %reass.sub, -1
  br i1 %omp_loop.cmp5.not, label %omp_loop.exit, label %omp_loop.body.lr.ph

omp_loop.body.lr.ph:                              ; preds = %omp.par.entry
  %8 = add i32 %6, 1
  %9 = getelementptr i8, ptr %loadgep_4, i64 40
  %10 = load i64, ptr %9, align 8, !tbaa !91
  %11 = load ptr, ptr %loadgep_4, align 8, !tbaa !91
  %12 = add i32 %7, 1
  %13 = sub i32 %12, %6
  %xtraiter = and i32 %13, 1
  %14 = icmp eq i32 %7, %6
  br i1 %14, label %omp_loop.exit.loopexit.unr-lcssa, label %omp_loop.body.lr.ph.new

omp_loop.body.lr.ph.new:                          ; preds = %omp_loop.body.lr.ph
  %unroll_iter = and i32 %13, -2
  br label %omp_loop.body

omp_loop.exit.loopexit.unr-lcssa:                 ; preds = %omp_loop.body, %omp_loop.body.lr.ph
  %omp_loop.iv6.unr = phi i32 [ 0, %omp_loop.body.lr.ph ], [ %omp_loop.next.1, %omp_loop.body ]
  %.unr = phi double [ 0.000000e+00, %omp_loop.body.lr.ph ], [ %37, %omp_loop.body ]
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %omp_loop.exit, label %omp_loop.body.epil

omp_loop.body.epil:                               ; preds = %omp_loop.exit.loopexit.unr-lcssa
  %15 = add i32 %8, %omp_loop.iv6.unr
    #dbg_value(i32 %15, !109, !DIExpression(), !107)
    #dbg_value(double %.unr, !106, !DIExpression(), !107)
  %16 = sext i32 %15 to i64, !dbg !110
  %17 = add nsw i64 %16, -1, !dbg !110
  %18 = mul nsw i64 %10, %17, !dbg !110
  %19 = getelementptr i8, ptr %11, i64 %18, !dbg !110
  %20 = load double, ptr %19, align 8, !dbg !110, !tbaa !111
  %21 = fadd contract double %.unr, %20, !dbg !110
    #dbg_value(double %21, !106, !DIExpression(), !107)
  store double %21, ptr %1, align 8, !dbg !110, !tbaa !100
  br label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.body.epil, %omp_loop.exit.loopexit.unr-lcssa, %omp.par.entry
  call void @__kmpc_for_static_fini(ptr nonnull @7, i32 %omp_global_thread_num6)
  call void @__kmpc_barrier(ptr nonnull @8, i32 %omp_global_thread_num6), !dbg !108
  store ptr %1, ptr %red.array, align 8
  %reduce = call i32 @__kmpc_reduce(ptr nonnull @10, i32 %omp_global_thread_num6, i32 1, i64 8, ptr nonnull %red.array, ptr nonnull @.omp.reduction.func, ptr nonnull @.gomp_critical_user_.reduction.var)
  %cond = icmp eq i32 %reduce, 1
  br i1 %cond, label %reduce.switch.nonatomic, label %reduce.finalize

reduce.switch.nonatomic:                          ; preds = %omp_loop.exit
  %red.value.0 = load double, ptr %loadgep_2, align 8
  %red.private.value.0 = load double, ptr %1, align 8
    #dbg_value(double %red.private.value.0, !106, !DIExpression(), !107)
  %22 = fadd contract double %red.value.0, %red.private.value.0, !dbg !108
  store double %22, ptr %loadgep_2, align 8
  call void @__kmpc_end_reduce(ptr nonnull @10, i32 %omp_global_thread_num6, ptr nonnull @.gomp_critical_user_.reduction.var)
  br label %reduce.finalize

reduce.finalize:                                  ; preds = %omp_loop.exit, %reduce.switch.nonatomic
  call void @__kmpc_barrier(ptr nonnull @11, i32 %omp_global_thread_num6)
  ret void

omp_loop.body:                                    ; preds = %omp_loop.body, %omp_loop.body.lr.ph.new
  %omp_loop.iv6 = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %omp_loop.next.1, %omp_loop.body ]
  %23 = phi double [ 0.000000e+00, %omp_loop.body.lr.ph.new ], [ %37, %omp_loop.body ]
  %niter = phi i32 [ 0, %omp_loop.body.lr.ph.new ], [ %niter.next.1, %omp_loop.body ]
  %24 = add i32 %8, %omp_loop.iv6
    #dbg_value(i32 %24, !109, !DIExpression(), !107)
    #dbg_value(double %23, !106, !DIExpression(), !107)
  %25 = sext i32 %24 to i64, !dbg !110
  %26 = add nsw i64 %25, -1, !dbg !110
  %27 = mul nsw i64 %10, %26, !dbg !110
  %28 = getelementptr i8, ptr %11, i64 %27, !dbg !110
  %29 = load double, ptr %28, align 8, !dbg !110, !tbaa !111
  %30 = fadd contract double %23, %29, !dbg !110
    #dbg_value(double %30, !106, !DIExpression(), !107)
  store double %30, ptr %1, align 8, !dbg !110, !tbaa !100
  %omp_loop.next = or disjoint i32 %omp_loop.iv6, 1
  %31 = add i32 %8, %omp_loop.next
    #dbg_value(i32 %31, !109, !DIExpression(), !107)
  %32 = sext i32 %31 to i64, !dbg !110
  %33 = add nsw i64 %32, -1, !dbg !110
  %34 = mul nsw i64 %10, %33, !dbg !110
  %35 = getelementptr i8, ptr %11, i64 %34, !dbg !110
  %36 = load double, ptr %35, align 8, !dbg !110, !tbaa !111
  %37 = fadd contract double %30, %36, !dbg !110
    #dbg_value(double %37, !106, !DIExpression(), !107)
  store double %37, ptr %1, align 8, !dbg !110, !tbaa !100
  %omp_loop.next.1 = add nuw i32 %omp_loop.iv6, 2
  %niter.next.1 = add i32 %niter, 2
  %niter.ncmp.1 = icmp eq i32 %niter.next.1, %unroll_iter
  br i1 %niter.ncmp.1, label %omp_loop.exit.loopexit.unr-lcssa, label %omp_loop.body
}

; Function Attrs: nounwind
define void @_QMkernelsPphases(ptr %0, ptr %1) local_unnamed_addr #2 !dbg !114 {
entry:
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %2 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !115
    #dbg_declare(ptr %0, !116, !DIExpression(), !117)
  %3 = getelementptr i8, ptr %0, i64 32, !dbg !115
  %4 = load i64, ptr %3, align 8, !dbg !115, !tbaa !118
  %5 = getelementptr i8, ptr %0, i64 40, !dbg !115
  %6 = load i64, ptr %5, align 8, !dbg !115, !tbaa !118
  %7 = load ptr, ptr %0, align 8, !dbg !115, !tbaa !118
  store ptr %7, ptr %2, align 8, !dbg !115, !tbaa !118
  %.fca.1.gep = getelementptr inbounds i8, ptr %2, i64 8, !dbg !115
  store i64 8, ptr %.fca.1.gep, align 8, !dbg !115, !tbaa !118
  %.fca.2.gep = getelementptr inbounds i8, ptr %2, i64 16, !dbg !115
  store i32 20180515, ptr %.fca.2.gep, align 8, !dbg !115, !tbaa !118
  %.fca.3.gep = getelementptr inbounds i8, ptr %2, i64 20, !dbg !115
  store i8 1, ptr %.fca.3.gep, align 4, !dbg !115, !tbaa !118
  %.fca.4.gep = getelementptr inbounds i8, ptr %2, i64 21, !dbg !115
  store i8 28, ptr %.fca.4.gep, align 1, !dbg !115, !tbaa !118
  %.fca.5.gep = getelementptr inbounds i8, ptr %2, i64 22, !dbg !115
  store i8 0, ptr %.fca.5.gep, align 2, !dbg !115, !tbaa !118
  %.fca.6.gep = getelementptr inbounds i8, ptr %2, i64 23, !dbg !115
  store i8 0, ptr %.fca.6.gep, align 1, !dbg !115, !tbaa !118
  %.fca.7.0.0.gep = getelementptr inbounds i8, ptr %2, i64 24, !dbg !115
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !dbg !115, !tbaa !118
  %.fca.7.0.1.gep = getelementptr inbounds i8, ptr %2, i64 32, !dbg !115
  store i64 %4, ptr %.fca.7.0.1.gep, align 8, !dbg !115, !tbaa !118
  %.fca.7.0.2.gep = getelementptr inbounds i8, ptr %2, i64 40, !dbg !115
  store i64 %6, ptr %.fca.7.0.2.gep, align 8, !dbg !115, !tbaa !118
    #dbg_declare(ptr %1, !122, !DIExpression(), !117)
    #dbg_declare(ptr undef, !123, !DIExpression(), !124)
    #dbg_declare(ptr undef, !125, !DIExpression(), !126)
  %omp_global_thread_num = tail call i32 @__kmpc_global_thread_num(ptr nonnull @13), !dbg !127
  store ptr %2, ptr %structArg, align 8
  %gep_25 = getelementptr inbounds i8, ptr %structArg, i64 8
  store ptr %1, ptr %gep_25, align 8
  %gep_26 = getelementptr inbounds i8, ptr %structArg, i64 16
  store ptr %0, ptr %gep_26, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @13, i32 1, ptr nonnull @_QMkernelsPphases..omp_par, ptr nonnull %structArg), !dbg !128
  ret void, !dbg !129
}

; Function Attrs: nounwind
define internal void @_QMkernelsPphases..omp_par(ptr noalias nocapture readnone %tid.addr, ptr noalias nocapture readnone %zero.addr, ptr nocapture readonly %0) #2 !dbg !130 {
omp.par.entry:
  %loadgep_ = load ptr, ptr %0, align 8
  %gep_1 = getelementptr i8, ptr %0, i64 8
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr i8, ptr %0, i64 16
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %p.lastiter18 = alloca i32, align 4, !dbg !131
  %p.lowerbound19 = alloca i32, align 4, !dbg !131
  %p.upperbound20 = alloca i32, align 4, !dbg !131
  %p.stride21 = alloca i32, align 4, !dbg !131
  %1 = getelementptr i8, ptr %loadgep_, i64 32, !dbg !132
  %2 = load i64, ptr %1, align 8, !dbg !132, !tbaa !118
  %3 = trunc i64 %2 to i32, !dbg !132
  %omp_loop.tripcount = tail call i32 @llvm.smax.i32(i32 %3, i32 0), !dbg !133
  store i32 1, ptr %p.lowerbound, align 4
  store i32 %omp_loop.tripcount, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num24 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @10), !dbg !131
  tail call void @__kmpc_dispatch_init_4u(ptr nonnull @15, i32 %omp_global_thread_num24, i32 1073741860, i32 1, i32 %omp_loop.tripcount, i32 1, i32 1)
  %4 = call i32 @__kmpc_dispatch_next_4u(ptr nonnull @15, i32 %omp_global_thread_num24, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride)
  %.not12 = icmp eq i32 %4, 0
  br i1 %.not12, label %omp_loop.exit, label %omp_loop.header.preheader.lr.ph

omp_loop.header.preheader.lr.ph:                  ; preds = %omp.par.entry
  %5 = getelementptr i8, ptr %loadgep_4, i64 40
  %6 = getelementptr i8, ptr %loadgep_2, i64 40
  br label %omp_loop.header.preheader

omp_loop.preheader.outer.cond.loopexit:           ; preds = %omp_loop.body.prol.loopexit, %omp_loop.body, %omp_loop.header.preheader
  %7 = call i32 @__kmpc_dispatch_next_4u(ptr nonnull @15, i32 %omp_global_thread_num24, ptr nonnull %p.lastiter, ptr nonnull %p.lowerbound, ptr nonnull %p.upperbound, ptr nonnull %p.stride)
  %.not = icmp eq i32 %7, 0
  br i1 %.not, label %omp_loop.exit, label %omp_loop.header.preheader

omp_loop.header.preheader:                        ; preds = %omp_loop.header.preheader.lr.ph, %omp_loop.preheader.outer.cond.loopexit
  %lb14.in = load i32, ptr %p.lowerbound, align 4
  %lb14 = add i32 %lb14.in, -1
  %ub = load i32, ptr %p.upperbound, align 4
  %omp_loop.cmp10 = icmp ult i32 %lb14, %ub
  br i1 %omp_loop.cmp10, label %omp_loop.body.lr.ph, label %omp_loop.preheader.outer.cond.loopexit

omp_loop.body.lr.ph:                              ; preds = %omp_loop.header.preheader
  %8 = load i64, ptr %5, align 8, !tbaa !118
  %9 = load ptr, ptr %loadgep_4, align 8, !tbaa !118
  %10 = load i64, ptr %6, align 8, !tbaa !118
  %11 = load ptr, ptr %loadgep_2, align 8, !tbaa !118
  %12 = add i32 %ub, %lb14.in
  %13 = and i32 %12, 1
  %lcmp.mod.not.not = icmp eq i32 %13, 0
  br i1 %lcmp.mod.not.not, label %omp_loop.body.prol, label %omp_loop.body.prol.loopexit

omp_loop.body.prol:                               ; preds = %omp_loop.body.lr.ph
    #dbg_value(i32 %lb14.in, !134, !DIExpression(), !135)
  %14 = sext i32 %lb14.in to i64, !dbg !136
  %15 = add nsw i64 %14, -1, !dbg !136
  %16 = mul nsw i64 %8, %15, !dbg !136
  %17 = getelementptr i8, ptr %9, i64 %16, !dbg !136
  %18 = load double, ptr %17, align 8, !dbg !136, !tbaa !137
  %19 = fmul contract double %18, 2.000000e+00, !dbg !136
    #dbg_value(double %19, !141, !DIExpression(), !135)
  %20 = fadd contract double %19, 1.000000e+00, !dbg !142
  %21 = mul nsw i64 %10, %15, !dbg !142
  %22 = getelementptr i8, ptr %11, i64 %21, !dbg !142
  store double %20, ptr %22, align 8, !dbg !142, !tbaa !143
  br label %omp_loop.body.prol.loopexit

omp_loop.body.prol.loopexit:                      ; preds = %omp_loop.body.prol, %omp_loop.body.lr.ph
  %omp_loop.iv11.unr = phi i32 [ %lb14, %omp_loop.body.lr.ph ], [ %lb14.in, %omp_loop.body.prol ]
  %23 = icmp eq i32 %ub, %lb14.in
  br i1 %23, label %omp_loop.preheader.outer.cond.loopexit, label %omp_loop.body

omp_loop.exit:                                    ; preds = %omp_loop.preheader.outer.cond.loopexit, %omp.par.entry
  call void @__kmpc_barrier(ptr nonnull @16, i32 %omp_global_thread_num24), !dbg !133
  store i32 0, ptr %p.lowerbound19, align 4, !dbg !131
  %24 = add nsw i32 %omp_loop.tripcount, -1, !dbg !131
  store i32 %24, ptr %p.upperbound20, align 4, !dbg !131
  store i32 1, ptr %p.stride21, align 4, !dbg !131
  call void @__kmpc_for_static_init_4u(ptr nonnull @18, i32 %omp_global_thread_num24, i32 33, ptr nonnull %p.lastiter18, ptr nonnull %p.lowerbound19, ptr nonnull %p.upperbound20, ptr nonnull %p.stride21, i32 1, i32 8), !dbg !131
  %omp_firstchunk.lb = load i32, ptr %p.lowerbound19, align 4, !dbg !131
  %omp_firstchunk.ub = load i32, ptr %p.upperbound20, align 4, !dbg !131
  %25 = add i32 %omp_firstchunk.ub, 1, !dbg !131
  %omp_chunk.range = sub i32 %25, %omp_firstchunk.lb, !dbg !131
  %omp_dispatch.stride = load i32, ptr %p.stride21, align 4, !dbg !131
  %26 = sub nuw i32 %omp_loop.tripcount, %omp_firstchunk.lb, !dbg !131
  %.not7 = icmp ugt i32 %omp_loop.tripcount, %omp_firstchunk.lb, !dbg !131
  %27 = add nsw i32 %26, -1, !dbg !131
  %28 = udiv i32 %27, %omp_dispatch.stride, !dbg !131
  %29 = add i32 %28, 1, !dbg !131
  %.not8 = icmp ugt i32 %26, %omp_dispatch.stride, !dbg !131
  %30 = select i1 %.not8, i32 %29, i32 1, !dbg !131
  %omp_dispatch.cmp917 = icmp ne i32 %30, 0
  %omp_dispatch.cmp18 = select i1 %.not7, i1 %omp_dispatch.cmp917, i1 false
  br i1 %omp_dispatch.cmp18, label %omp_dispatch.body.lr.ph, label %omp_dispatch.exit

omp_dispatch.body.lr.ph:                          ; preds = %omp_loop.exit
  %31 = getelementptr i8, ptr %loadgep_2, i64 40
  %32 = getelementptr i8, ptr %loadgep_4, i64 40
  %.neg22 = add i32 %omp_firstchunk.lb, 1
  br label %omp_dispatch.body

omp_dispatch.exit:                                ; preds = %omp_dispatch.inc, %omp_loop.exit
  call void @__kmpc_for_static_fini(ptr nonnull @18, i32 %omp_global_thread_num24)
  call void @__kmpc_barrier(ptr nonnull @19, i32 %omp_global_thread_num24), !dbg !131
  ret void

omp_dispatch.body:                                ; preds = %omp_dispatch.body.lr.ph, %omp_dispatch.inc
  %omp_dispatch.iv19 = phi i32 [ 0, %omp_dispatch.body.lr.ph ], [ %omp_dispatch.next, %omp_dispatch.inc ]
  %33 = mul i32 %omp_dispatch.stride, %omp_dispatch.iv19
  %34 = add i32 %25, %33
  %umin = call i32 @llvm.umin.i32(i32 %omp_loop.tripcount, i32 %34)
  %35 = mul i32 %omp_dispatch.stride, %omp_dispatch.iv19
  %36 = add i32 %omp_firstchunk.lb, %35
  %37 = sub i32 %umin, %36
  %38 = mul i32 %omp_dispatch.iv19, %omp_dispatch.stride
  %39 = add i32 %38, %omp_firstchunk.lb
  %40 = add i32 %38, %25
  %omp_chunk.is_last.not = icmp ult i32 %40, %omp_loop.tripcount
  %41 = sub i32 %omp_loop.tripcount, %39
  %omp_chunk.tripcount = select i1 %omp_chunk.is_last.not, i32 %omp_chunk.range, i32 %41
  %omp_loop.cmp1415.not = icmp eq i32 %omp_chunk.tripcount, 0
  br i1 %omp_loop.cmp1415.not, label %omp_dispatch.inc, label %omp_loop.body9.lr.ph

omp_loop.body9.lr.ph:                             ; preds = %omp_dispatch.body
  %.neg = add i32 %.neg22, %35
  %42 = add i32 %39, 1
  %43 = load i64, ptr %31, align 8, !tbaa !118
  %44 = load ptr, ptr %loadgep_2, align 8, !tbaa !118
  %45 = load i64, ptr %32, align 8, !tbaa !118
  %46 = load ptr, ptr %loadgep_4, align 8, !tbaa !118
  %xtraiter20 = and i32 %37, 1
  %47 = icmp eq i32 %umin, %.neg
  br i1 %47, label %omp_dispatch.inc.loopexit.unr-lcssa, label %omp_loop.body9.lr.ph.new

omp_loop.body9.lr.ph.new:                         ; preds = %omp_loop.body9.lr.ph
  %unroll_iter = and i32 %37, -2
  br label %omp_loop.body9

omp_dispatch.inc.loopexit.unr-lcssa:              ; preds = %omp_loop.body9, %omp_loop.body9.lr.ph
  %omp_loop.iv1316.unr = phi i32 [ 0, %omp_loop.body9.lr.ph ], [ %omp_loop.next15.1, %omp_loop.body9 ]
  %lcmp.mod21.not = icmp eq i32 %xtraiter20, 0
  br i1 %lcmp.mod21.not, label %omp_dispatch.inc, label %omp_loop.body9.epil

omp_loop.body9.epil:                              ; preds = %omp_dispatch.inc.loopexit.unr-lcssa
  %48 = add i32 %42, %omp_loop.iv1316.unr
    #dbg_value(i32 %48, !134, !DIExpression(), !135)
  %49 = sext i32 %48 to i64, !dbg !145
  %50 = add nsw i64 %49, -1, !dbg !145
  %51 = mul nsw i64 %43, %50, !dbg !145
  %52 = getelementptr i8, ptr %44, i64 %51, !dbg !145
  %53 = load double, ptr %52, align 8, !dbg !145, !tbaa !143
  %54 = mul nsw i64 %45, %50, !dbg !145
  %55 = getelementptr i8, ptr %46, i64 %54, !dbg !145
  %56 = load double, ptr %55, align 8, !dbg !145, !tbaa !137
  %57 = fsub contract double %53, %56, !dbg !145
  store double %57, ptr %55, align 8, !dbg !145, !tbaa !137
  br label %omp_dispatch.inc

omp_dispatch.inc:                                 ; preds = %omp_loop.body9.epil, %omp_dispatch.inc.loopexit.unr-lcssa, %omp_dispatch.body
  %omp_dispatch.next = add nuw i32 %omp_dispatch.iv19, 1
  %omp_dispatch.cmp9 = icmp ugt i32 %30, %omp_dispatch.next
  br i1 %omp_dispatch.cmp9, label %omp_dispatch.body, label %omp_dispatch.exit

omp_loop.body9:                                   ; preds = %omp_loop.body9, %omp_loop.body9.lr.ph.new
  %omp_loop.iv1316 = phi i32 [ 0, %omp_loop.body9.lr.ph.new ], [ %omp_loop.next15.1, %omp_loop.body9 ]
  %niter = phi i32 [ 0, %omp_loop.body9.lr.ph.new ], [ %niter.next.1, %omp_loop.body9 ]
  %58 = add i32 %42, %omp_loop.iv1316
    #dbg_value(i32 %58, !134, !DIExpression(), !135)
  %59 = sext i32 %58 to i64, !dbg !145
  %60 = add nsw i64 %59, -1, !dbg !145
  %61 = mul nsw i64 %43, %60, !dbg !145
  %62 = getelementptr i8, ptr %44, i64 %61, !dbg !145
  %63 = load double, ptr %62, align 8, !dbg !145, !tbaa !143
  %64 = mul nsw i64 %45, %60, !dbg !145
  %65 = getelementptr i8, ptr %46, i64 %64, !dbg !145
  %66 = load double, ptr %65, align 8, !dbg !145, !tbaa !137
  %67 = fsub contract double %63, %66, !dbg !145
  store double %67, ptr %65, align 8, !dbg !145, !tbaa !137
  %omp_loop.next15 = or disjoint i32 %omp_loop.iv1316, 1
  %68 = add i32 %42, %omp_loop.next15
    #dbg_value(i32 %68, !134, !DIExpression(), !135)
  %69 = sext i32 %68 to i64, !dbg !145
  %70 = add nsw i64 %69, -1, !dbg !145
  %71 = mul nsw i64 %43, %70, !dbg !145
  %72 = getelementptr i8, ptr %44, i64 %71, !dbg !145
  %73 = load double, ptr %72, align 8, !dbg !145, !tbaa !143
  %74 = mul nsw i64 %45, %70, !dbg !145
  %75 = getelementptr i8, ptr %46, i64 %74, !dbg !145
  %76 = load double, ptr %75, align 8, !dbg !145, !tbaa !137
  %77 = fsub contract double %73, %76, !dbg !145
  store double %77, ptr %75, align 8, !dbg !145, !tbaa !137
  %omp_loop.next15.1 = add nuw i32 %omp_loop.iv1316, 2
  %niter.next.1 = add i32 %niter, 2
  %niter.ncmp.1.not = icmp eq i32 %niter.next.1, %unroll_iter
  br i1 %niter.ncmp.1.not, label %omp_dispatch.inc.loopexit.unr-lcssa, label %omp_loop.body9

omp_loop.body:                                    ; preds = %omp_loop.body.prol.loopexit, %omp_loop.body
  %omp_loop.iv11 = phi i32 [ %88, %omp_loop.body ], [ %omp_loop.iv11.unr, %omp_loop.body.prol.loopexit ]
  %78 = add nuw i32 %omp_loop.iv11, 1
    #dbg_value(i32 %78, !134, !DIExpression(), !135)
  %79 = sext i32 %78 to i64, !dbg !136
  %80 = add nsw i64 %79, -1, !dbg !136
  %81 = mul nsw i64 %8, %80, !dbg !136
  %82 = getelementptr i8, ptr %9, i64 %81, !dbg !136
  %83 = load double, ptr %82, align 8, !dbg !136, !tbaa !137
  %84 = fmul contract double %83, 2.000000e+00, !dbg !136
    #dbg_value(double %84, !141, !DIExpression(), !135)
  %85 = fadd contract double %84, 1.000000e+00, !dbg !142
  %86 = mul nsw i64 %10, %80, !dbg !142
  %87 = getelementptr i8, ptr %11, i64 %86, !dbg !142
  store double %85, ptr %87, align 8, !dbg !142, !tbaa !143
  %88 = add nuw i32 %omp_loop.iv11, 2
    #dbg_value(i32 %88, !134, !DIExpression(), !135)
  %89 = sext i32 %88 to i64, !dbg !136
  %90 = add nsw i64 %89, -1, !dbg !136
  %91 = mul nsw i64 %8, %90, !dbg !136
  %92 = getelementptr i8, ptr %9, i64 %91, !dbg !136
  %93 = load double, ptr %92, align 8, !dbg !136, !tbaa !137
  %94 = fmul contract double %93, 2.000000e+00, !dbg !136
    #dbg_value(double %94, !141, !DIExpression(), !135)
  %95 = fadd contract double %94, 1.000000e+00, !dbg !142
  %96 = mul nsw i64 %10, %90, !dbg !142
  %97 = getelementptr i8, ptr %11, i64 %96, !dbg !142
  store double %95, ptr %97, align 8, !dbg !142, !tbaa !143
  %exitcond.not.1 = icmp eq i32 %88, %ub
  br i1 %exitcond.not.1, label %omp_loop.preheader.outer.cond.loopexit, label %omp_loop.body
}

define void @_QQmain() local_unnamed_addr #3 !dbg !2 {
vector.ph:
  %structArg.i1148 = alloca { ptr, ptr, ptr }, align 8
  %0 = alloca double, align 8, !dbg !146
  %1 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !148
  %structArg.i1137 = alloca { ptr, ptr, ptr }, align 8
  %2 = alloca double, align 8, !dbg !149
  %3 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !151
  %structArg.i1126 = alloca { ptr, ptr, ptr }, align 8
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !152
  %structArg.i1113 = alloca { ptr, ptr, ptr }, align 8
  %5 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !154
  %structArg.i = alloca { ptr, ptr, ptr }, align 8
  %6 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !156
  %7 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !158
  %8 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !159
  %9 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !160
  %10 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !160
  %11 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !161
  %12 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !162
  %13 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !162
  %14 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !163
  %15 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !163
  %16 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !164
  %17 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !165
  %18 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !160
  %19 = alloca double, align 8, !dbg !164
  %20 = tail call dereferenceable_or_null(800) ptr @malloc(i64 800), !dbg !166
  store ptr %20, ptr @_QFEx, align 16, !dbg !166, !tbaa !167
  store i64 8, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 8), align 8, !dbg !166, !tbaa !167
  store i32 20180515, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 16), align 16, !dbg !166, !tbaa !167
  store i8 1, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 20), align 4, !dbg !166, !tbaa !167
  store i8 28, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 21), align 1, !dbg !166, !tbaa !167
  store i8 2, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 22), align 2, !dbg !166, !tbaa !167
  store i8 0, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 23), align 1, !dbg !166, !tbaa !167
  store i64 1, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 24), align 8, !dbg !166, !tbaa !167
  store i64 100, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 32), align 16, !dbg !166, !tbaa !167
  store i64 8, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 40), align 8, !dbg !166, !tbaa !167
  %21 = tail call dereferenceable_or_null(800) ptr @malloc(i64 800), !dbg !166
  store ptr %21, ptr @_QFEy, align 16, !dbg !166, !tbaa !167
  store i64 8, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 8), align 8, !dbg !166, !tbaa !167
  store i32 20180515, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 16), align 16, !dbg !166, !tbaa !167
  store i8 1, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 20), align 4, !dbg !166, !tbaa !167
  store i8 28, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 21), align 1, !dbg !166, !tbaa !167
  store i8 2, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 22), align 2, !dbg !166, !tbaa !167
  store i8 0, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 23), align 1, !dbg !166, !tbaa !167
  store i64 1, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 24), align 8, !dbg !166, !tbaa !167
  store i64 100, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 32), align 16, !dbg !166, !tbaa !167
  store i64 8, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 40), align 8, !dbg !166, !tbaa !167
  %22 = tail call dereferenceable_or_null(128) ptr @malloc(i64 128), !dbg !166
  store ptr %22, ptr @_QFEm.0, align 8, !dbg !166, !tbaa !167
  br label %vector.body, !dbg !171

vector.body:                                      ; preds = %vector.body.1, %vector.ph
  %index = phi i64 [ 0, %vector.ph ], [ %index.next.1, %vector.body.1 ]
  %vec.ind = phi <2 x i32> [ <i32 1, i32 2>, %vector.ph ], [ %vec.ind.next.1, %vector.body.1 ], !dbg !172
  %step.add = add <2 x i32> %vec.ind, <i32 2, i32 2>, !dbg !172
  %23 = sitofp <2 x i32> %vec.ind to <2 x double>, !dbg !172
  %24 = sitofp <2 x i32> %step.add to <2 x double>, !dbg !172
  %25 = getelementptr double, ptr %21, i64 %index, !dbg !172
  %26 = getelementptr i8, ptr %25, i64 16, !dbg !172
  store <2 x double> %23, ptr %25, align 8, !dbg !172, !tbaa !173
  store <2 x double> %24, ptr %26, align 8, !dbg !172, !tbaa !173
  %27 = icmp eq i64 %index, 96
  br i1 %27, label %middle.block, label %vector.body.1, !llvm.loop !177

vector.body.1:                                    ; preds = %vector.body
  %index.next = or disjoint i64 %index, 4
  %vec.ind.next = add <2 x i32> %vec.ind, <i32 4, i32 4>, !dbg !172
  %step.add.1 = add <2 x i32> %vec.ind, <i32 6, i32 6>, !dbg !172
  %28 = sitofp <2 x i32> %vec.ind.next to <2 x double>, !dbg !172
  %29 = sitofp <2 x i32> %step.add.1 to <2 x double>, !dbg !172
  %30 = getelementptr double, ptr %21, i64 %index.next, !dbg !172
  %31 = getelementptr i8, ptr %30, i64 16, !dbg !172
  store <2 x double> %28, ptr %30, align 8, !dbg !172, !tbaa !173
  store <2 x double> %29, ptr %31, align 8, !dbg !172, !tbaa !173
  %index.next.1 = add nuw nsw i64 %index, 8
  %vec.ind.next.1 = add <2 x i32> %vec.ind, <i32 8, i32 8>, !dbg !172
  br label %vector.body

middle.block:                                     ; preds = %vector.body
    #dbg_value(i32 undef, !180, !DIExpression(), !181)
  store ptr %21, ptr %17, align 8, !dbg !165, !tbaa !167
  %.fca.1.gep260 = getelementptr inbounds i8, ptr %17, i64 8, !dbg !165
  store i64 8, ptr %.fca.1.gep260, align 8, !dbg !165, !tbaa !167
  %.fca.2.gep262 = getelementptr inbounds i8, ptr %17, i64 16, !dbg !165
  store i32 20180515, ptr %.fca.2.gep262, align 8, !dbg !165, !tbaa !167
  %.fca.3.gep264 = getelementptr inbounds i8, ptr %17, i64 20, !dbg !165
  store i8 1, ptr %.fca.3.gep264, align 4, !dbg !165, !tbaa !167
  %.fca.4.gep266 = getelementptr inbounds i8, ptr %17, i64 21, !dbg !165
  store i8 28, ptr %.fca.4.gep266, align 1, !dbg !165, !tbaa !167
  %.fca.5.gep268 = getelementptr inbounds i8, ptr %17, i64 22, !dbg !165
  store i8 0, ptr %.fca.5.gep268, align 2, !dbg !165, !tbaa !167
  %.fca.6.gep270 = getelementptr inbounds i8, ptr %17, i64 23, !dbg !165
  store i8 0, ptr %.fca.6.gep270, align 1, !dbg !165, !tbaa !167
  %.fca.7.0.0.gep272 = getelementptr inbounds i8, ptr %17, i64 24, !dbg !165
  store i64 1, ptr %.fca.7.0.0.gep272, align 8, !dbg !165, !tbaa !167
  %.fca.7.0.1.gep274 = getelementptr inbounds i8, ptr %17, i64 32, !dbg !165
  store i64 100, ptr %.fca.7.0.1.gep274, align 8, !dbg !165, !tbaa !167
  %.fca.7.0.2.gep276 = getelementptr inbounds i8, ptr %17, i64 40, !dbg !165
  store i64 8, ptr %.fca.7.0.2.gep276, align 8, !dbg !165, !tbaa !167
  %32 = call {} @_FortranAAssign(ptr nonnull @_QFEx, ptr nonnull %17, ptr nonnull @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 68), !dbg !165
  %.unpack957 = load ptr, ptr @_QFEx, align 16, !dbg !164, !tbaa !167
  %.unpack964.unpack.unpack966 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 32), align 16, !dbg !164, !tbaa !167
  %.unpack964.unpack.unpack967 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 40), align 8, !dbg !164, !tbaa !167
  store ptr %.unpack957, ptr %16, align 8, !dbg !164, !tbaa !167
  %.fca.1.gep310 = getelementptr inbounds i8, ptr %16, i64 8, !dbg !164
  store i64 8, ptr %.fca.1.gep310, align 8, !dbg !164, !tbaa !167
  %.fca.2.gep312 = getelementptr inbounds i8, ptr %16, i64 16, !dbg !164
  store i32 20180515, ptr %.fca.2.gep312, align 8, !dbg !164, !tbaa !167
  %.fca.3.gep314 = getelementptr inbounds i8, ptr %16, i64 20, !dbg !164
  store i8 1, ptr %.fca.3.gep314, align 4, !dbg !164, !tbaa !167
  %.fca.4.gep316 = getelementptr inbounds i8, ptr %16, i64 21, !dbg !164
  store i8 28, ptr %.fca.4.gep316, align 1, !dbg !164, !tbaa !167
  %.fca.5.gep318 = getelementptr inbounds i8, ptr %16, i64 22, !dbg !164
  store i8 0, ptr %.fca.5.gep318, align 2, !dbg !164, !tbaa !167
  %.fca.6.gep320 = getelementptr inbounds i8, ptr %16, i64 23, !dbg !164
  store i8 0, ptr %.fca.6.gep320, align 1, !dbg !164, !tbaa !167
  %.fca.7.0.0.gep322 = getelementptr inbounds i8, ptr %16, i64 24, !dbg !164
  store i64 1, ptr %.fca.7.0.0.gep322, align 8, !dbg !164, !tbaa !167
  %.fca.7.0.1.gep324 = getelementptr inbounds i8, ptr %16, i64 32, !dbg !164
  store i64 %.unpack964.unpack.unpack966, ptr %.fca.7.0.1.gep324, align 8, !dbg !164, !tbaa !167
  %.fca.7.0.2.gep326 = getelementptr inbounds i8, ptr %16, i64 40, !dbg !164
  store i64 %.unpack964.unpack.unpack967, ptr %.fca.7.0.2.gep326, align 8, !dbg !164, !tbaa !167
    #dbg_value(double 2.000000e+00, !38, !DIExpression(), !182)
  store double 2.000000e+00, ptr %19, align 8, !dbg !164, !tbaa !183
  call void @llvm.lifetime.start.p0(i64 24, ptr nonnull %structArg.i), !dbg !156
  call void @llvm.lifetime.start.p0(i64 48, ptr nonnull %6), !dbg !156
    #dbg_declare(ptr %16, !32, !DIExpression(), !184)
  store ptr %.unpack957, ptr %6, align 8, !dbg !156, !tbaa !34
  %.fca.1.gep.i = getelementptr inbounds i8, ptr %6, i64 8, !dbg !156
  store i64 8, ptr %.fca.1.gep.i, align 8, !dbg !156, !tbaa !34
  %.fca.2.gep.i = getelementptr inbounds i8, ptr %6, i64 16, !dbg !156
  store i32 20180515, ptr %.fca.2.gep.i, align 8, !dbg !156, !tbaa !34
  %.fca.3.gep.i = getelementptr inbounds i8, ptr %6, i64 20, !dbg !156
  store i8 1, ptr %.fca.3.gep.i, align 4, !dbg !156, !tbaa !34
  %.fca.4.gep.i = getelementptr inbounds i8, ptr %6, i64 21, !dbg !156
  store i8 28, ptr %.fca.4.gep.i, align 1, !dbg !156, !tbaa !34
  %.fca.5.gep.i = getelementptr inbounds i8, ptr %6, i64 22, !dbg !156
  store i8 0, ptr %.fca.5.gep.i, align 2, !dbg !156, !tbaa !34
  %.fca.6.gep.i = getelementptr inbounds i8, ptr %6, i64 23, !dbg !156
  store i8 0, ptr %.fca.6.gep.i, align 1, !dbg !156, !tbaa !34
  %.fca.7.0.0.gep.i = getelementptr inbounds i8, ptr %6, i64 24, !dbg !156
  store i64 1, ptr %.fca.7.0.0.gep.i, align 8, !dbg !156, !tbaa !34
  %.fca.7.0.1.gep.i = getelementptr inbounds i8, ptr %6, i64 32, !dbg !156
  store i64 %.unpack964.unpack.unpack966, ptr %.fca.7.0.1.gep.i, align 8, !dbg !156, !tbaa !34
  %.fca.7.0.2.gep.i = getelementptr inbounds i8, ptr %6, i64 40, !dbg !156
  store i64 %.unpack964.unpack.unpack967, ptr %.fca.7.0.2.gep.i, align 8, !dbg !156, !tbaa !34
    #dbg_declare(ptr undef, !39, !DIExpression(), !185)
  %omp_global_thread_num.i1158 = call i32 @__kmpc_global_thread_num(ptr nonnull @10), !dbg !186
  store ptr %6, ptr %structArg.i, align 8
  %gep_5.i = getelementptr inbounds i8, ptr %structArg.i, i64 8
  store ptr %16, ptr %gep_5.i, align 8
  %gep_6.i = getelementptr inbounds i8, ptr %structArg.i, i64 16
  store ptr %19, ptr %gep_6.i, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @1, i32 1, ptr nonnull @_QMkernelsPscale..omp_par, ptr nonnull %structArg.i), !dbg !185
  call void @llvm.lifetime.end.p0(i64 24, ptr nonnull %structArg.i), !dbg !187
  call void @llvm.lifetime.end.p0(i64 48, ptr nonnull %6), !dbg !187
  %.unpack969 = load ptr, ptr @_QFEx, align 16, !dbg !163, !tbaa !167
  %.unpack976.unpack.unpack978 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 32), align 16, !dbg !163, !tbaa !167
  %.unpack976.unpack.unpack979 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 40), align 8, !dbg !163, !tbaa !167
  store ptr %.unpack969, ptr %15, align 8, !dbg !163, !tbaa !167
  %.fca.1.gep360 = getelementptr inbounds i8, ptr %15, i64 8, !dbg !163
  store i64 8, ptr %.fca.1.gep360, align 8, !dbg !163, !tbaa !167
  %.fca.2.gep362 = getelementptr inbounds i8, ptr %15, i64 16, !dbg !163
  store i32 20180515, ptr %.fca.2.gep362, align 8, !dbg !163, !tbaa !167
  %.fca.3.gep364 = getelementptr inbounds i8, ptr %15, i64 20, !dbg !163
  store i8 1, ptr %.fca.3.gep364, align 4, !dbg !163, !tbaa !167
  %.fca.4.gep366 = getelementptr inbounds i8, ptr %15, i64 21, !dbg !163
  store i8 28, ptr %.fca.4.gep366, align 1, !dbg !163, !tbaa !167
  %.fca.5.gep368 = getelementptr inbounds i8, ptr %15, i64 22, !dbg !163
  store i8 0, ptr %.fca.5.gep368, align 2, !dbg !163, !tbaa !167
  %.fca.6.gep370 = getelementptr inbounds i8, ptr %15, i64 23, !dbg !163
  store i8 0, ptr %.fca.6.gep370, align 1, !dbg !163, !tbaa !167
  %.fca.7.0.0.gep372 = getelementptr inbounds i8, ptr %15, i64 24, !dbg !163
  store i64 1, ptr %.fca.7.0.0.gep372, align 8, !dbg !163, !tbaa !167
  %.fca.7.0.1.gep374 = getelementptr inbounds i8, ptr %15, i64 32, !dbg !163
  store i64 %.unpack976.unpack.unpack978, ptr %.fca.7.0.1.gep374, align 8, !dbg !163, !tbaa !167
  %.fca.7.0.2.gep376 = getelementptr inbounds i8, ptr %15, i64 40, !dbg !163
  store i64 %.unpack976.unpack.unpack979, ptr %.fca.7.0.2.gep376, align 8, !dbg !163, !tbaa !167
  %.unpack981 = load ptr, ptr @_QFEy, align 16, !dbg !163, !tbaa !167
  %.unpack988.unpack.unpack990 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 32), align 16, !dbg !163, !tbaa !167
  %.unpack988.unpack.unpack991 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 40), align 8, !dbg !163, !tbaa !167
  store ptr %.unpack981, ptr %14, align 8, !dbg !163, !tbaa !167
  %.fca.1.gep410 = getelementptr inbounds i8, ptr %14, i64 8, !dbg !163
  store i64 8, ptr %.fca.1.gep410, align 8, !dbg !163, !tbaa !167
  %.fca.2.gep412 = getelementptr inbounds i8, ptr %14, i64 16, !dbg !163
  store i32 20180515, ptr %.fca.2.gep412, align 8, !dbg !163, !tbaa !167
  %.fca.3.gep414 = getelementptr inbounds i8, ptr %14, i64 20, !dbg !163
  store i8 1, ptr %.fca.3.gep414, align 4, !dbg !163, !tbaa !167
  %.fca.4.gep416 = getelementptr inbounds i8, ptr %14, i64 21, !dbg !163
  store i8 28, ptr %.fca.4.gep416, align 1, !dbg !163, !tbaa !167
  %.fca.5.gep418 = getelementptr inbounds i8, ptr %14, i64 22, !dbg !163
  store i8 0, ptr %.fca.5.gep418, align 2, !dbg !163, !tbaa !167
  %.fca.6.gep420 = getelementptr inbounds i8, ptr %14, i64 23, !dbg !163
  store i8 0, ptr %.fca.6.gep420, align 1, !dbg !163, !tbaa !167
  %.fca.7.0.0.gep422 = getelementptr inbounds i8, ptr %14, i64 24, !dbg !163
  store i64 1, ptr %.fca.7.0.0.gep422, align 8, !dbg !163, !tbaa !167
  %.fca.7.0.1.gep424 = getelementptr inbounds i8, ptr %14, i64 32, !dbg !163
  store i64 %.unpack988.unpack.unpack990, ptr %.fca.7.0.1.gep424, align 8, !dbg !163, !tbaa !167
  %.fca.7.0.2.gep426 = getelementptr inbounds i8, ptr %14, i64 40, !dbg !163
  store i64 %.unpack988.unpack.unpack991, ptr %.fca.7.0.2.gep426, align 8, !dbg !163, !tbaa !167
  call void @llvm.lifetime.start.p0(i64 24, ptr nonnull %structArg.i1113), !dbg !154
  call void @llvm.lifetime.start.p0(i64 48, ptr nonnull %5), !dbg !154
    #dbg_declare(ptr %15, !61, !DIExpression(), !188)
  store ptr %.unpack969, ptr %5, align 8, !dbg !154, !tbaa !63
  %.fca.1.gep.i1114 = getelementptr inbounds i8, ptr %5, i64 8, !dbg !154
  store i64 8, ptr %.fca.1.gep.i1114, align 8, !dbg !154, !tbaa !63
  %.fca.2.gep.i1115 = getelementptr inbounds i8, ptr %5, i64 16, !dbg !154
  store i32 20180515, ptr %.fca.2.gep.i1115, align 8, !dbg !154, !tbaa !63
  %.fca.3.gep.i1116 = getelementptr inbounds i8, ptr %5, i64 20, !dbg !154
  store i8 1, ptr %.fca.3.gep.i1116, align 4, !dbg !154, !tbaa !63
  %.fca.4.gep.i1117 = getelementptr inbounds i8, ptr %5, i64 21, !dbg !154
  store i8 28, ptr %.fca.4.gep.i1117, align 1, !dbg !154, !tbaa !63
  %.fca.5.gep.i1118 = getelementptr inbounds i8, ptr %5, i64 22, !dbg !154
  store i8 0, ptr %.fca.5.gep.i1118, align 2, !dbg !154, !tbaa !63
  %.fca.6.gep.i1119 = getelementptr inbounds i8, ptr %5, i64 23, !dbg !154
  store i8 0, ptr %.fca.6.gep.i1119, align 1, !dbg !154, !tbaa !63
  %.fca.7.0.0.gep.i1120 = getelementptr inbounds i8, ptr %5, i64 24, !dbg !154
  store i64 1, ptr %.fca.7.0.0.gep.i1120, align 8, !dbg !154, !tbaa !63
  %.fca.7.0.1.gep.i1121 = getelementptr inbounds i8, ptr %5, i64 32, !dbg !154
  store i64 %.unpack976.unpack.unpack978, ptr %.fca.7.0.1.gep.i1121, align 8, !dbg !154, !tbaa !63
  %.fca.7.0.2.gep.i1122 = getelementptr inbounds i8, ptr %5, i64 40, !dbg !154
  store i64 %.unpack976.unpack.unpack979, ptr %.fca.7.0.2.gep.i1122, align 8, !dbg !154, !tbaa !63
    #dbg_declare(ptr %14, !67, !DIExpression(), !188)
    #dbg_declare(ptr undef, !68, !DIExpression(), !189)
  store ptr %5, ptr %structArg.i1113, align 8
  %gep_5.i1124 = getelementptr inbounds i8, ptr %structArg.i1113, i64 8
  store ptr %15, ptr %gep_5.i1124, align 8
  %gep_6.i1125 = getelementptr inbounds i8, ptr %structArg.i1113, i64 16
  store ptr %14, ptr %gep_6.i1125, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 1, ptr nonnull @_QMkernelsPdyn..omp_par, ptr nonnull %structArg.i1113), !dbg !189
  call void @llvm.lifetime.end.p0(i64 24, ptr nonnull %structArg.i1113), !dbg !190
  call void @llvm.lifetime.end.p0(i64 48, ptr nonnull %5), !dbg !190
  %.unpack993 = load ptr, ptr @_QFEx, align 16, !dbg !162, !tbaa !167
  %.unpack1000.unpack.unpack1002 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 32), align 16, !dbg !162, !tbaa !167
  %.unpack1000.unpack.unpack1003 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 40), align 8, !dbg !162, !tbaa !167
  store ptr %.unpack993, ptr %13, align 8, !dbg !162, !tbaa !167
  %.fca.1.gep460 = getelementptr inbounds i8, ptr %13, i64 8, !dbg !162
  store i64 8, ptr %.fca.1.gep460, align 8, !dbg !162, !tbaa !167
  %.fca.2.gep462 = getelementptr inbounds i8, ptr %13, i64 16, !dbg !162
  store i32 20180515, ptr %.fca.2.gep462, align 8, !dbg !162, !tbaa !167
  %.fca.3.gep464 = getelementptr inbounds i8, ptr %13, i64 20, !dbg !162
  store i8 1, ptr %.fca.3.gep464, align 4, !dbg !162, !tbaa !167
  %.fca.4.gep466 = getelementptr inbounds i8, ptr %13, i64 21, !dbg !162
  store i8 28, ptr %.fca.4.gep466, align 1, !dbg !162, !tbaa !167
  %.fca.5.gep468 = getelementptr inbounds i8, ptr %13, i64 22, !dbg !162
  store i8 0, ptr %.fca.5.gep468, align 2, !dbg !162, !tbaa !167
  %.fca.6.gep470 = getelementptr inbounds i8, ptr %13, i64 23, !dbg !162
  store i8 0, ptr %.fca.6.gep470, align 1, !dbg !162, !tbaa !167
  %.fca.7.0.0.gep472 = getelementptr inbounds i8, ptr %13, i64 24, !dbg !162
  store i64 1, ptr %.fca.7.0.0.gep472, align 8, !dbg !162, !tbaa !167
  %.fca.7.0.1.gep474 = getelementptr inbounds i8, ptr %13, i64 32, !dbg !162
  store i64 %.unpack1000.unpack.unpack1002, ptr %.fca.7.0.1.gep474, align 8, !dbg !162, !tbaa !167
  %.fca.7.0.2.gep476 = getelementptr inbounds i8, ptr %13, i64 40, !dbg !162
  store i64 %.unpack1000.unpack.unpack1003, ptr %.fca.7.0.2.gep476, align 8, !dbg !162, !tbaa !167
  %.unpack1005 = load ptr, ptr @_QFEy, align 16, !dbg !162, !tbaa !167
  %.unpack1012.unpack.unpack1014 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 32), align 16, !dbg !162, !tbaa !167
  %.unpack1012.unpack.unpack1015 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 40), align 8, !dbg !162, !tbaa !167
  store ptr %.unpack1005, ptr %12, align 8, !dbg !162, !tbaa !167
  %.fca.1.gep510 = getelementptr inbounds i8, ptr %12, i64 8, !dbg !162
  store i64 8, ptr %.fca.1.gep510, align 8, !dbg !162, !tbaa !167
  %.fca.2.gep512 = getelementptr inbounds i8, ptr %12, i64 16, !dbg !162
  store i32 20180515, ptr %.fca.2.gep512, align 8, !dbg !162, !tbaa !167
  %.fca.3.gep514 = getelementptr inbounds i8, ptr %12, i64 20, !dbg !162
  store i8 1, ptr %.fca.3.gep514, align 4, !dbg !162, !tbaa !167
  %.fca.4.gep516 = getelementptr inbounds i8, ptr %12, i64 21, !dbg !162
  store i8 28, ptr %.fca.4.gep516, align 1, !dbg !162, !tbaa !167
  %.fca.5.gep518 = getelementptr inbounds i8, ptr %12, i64 22, !dbg !162
  store i8 0, ptr %.fca.5.gep518, align 2, !dbg !162, !tbaa !167
  %.fca.6.gep520 = getelementptr inbounds i8, ptr %12, i64 23, !dbg !162
  store i8 0, ptr %.fca.6.gep520, align 1, !dbg !162, !tbaa !167
  %.fca.7.0.0.gep522 = getelementptr inbounds i8, ptr %12, i64 24, !dbg !162
  store i64 1, ptr %.fca.7.0.0.gep522, align 8, !dbg !162, !tbaa !167
  %.fca.7.0.1.gep524 = getelementptr inbounds i8, ptr %12, i64 32, !dbg !162
  store i64 %.unpack1012.unpack.unpack1014, ptr %.fca.7.0.1.gep524, align 8, !dbg !162, !tbaa !167
  %.fca.7.0.2.gep526 = getelementptr inbounds i8, ptr %12, i64 40, !dbg !162
  store i64 %.unpack1012.unpack.unpack1015, ptr %.fca.7.0.2.gep526, align 8, !dbg !162, !tbaa !167
  call void @llvm.lifetime.start.p0(i64 24, ptr nonnull %structArg.i1126), !dbg !152
  call void @llvm.lifetime.start.p0(i64 48, ptr nonnull %4), !dbg !152
    #dbg_declare(ptr %13, !116, !DIExpression(), !191)
  store ptr %.unpack993, ptr %4, align 8, !dbg !152, !tbaa !118
  %.fca.1.gep.i1127 = getelementptr inbounds i8, ptr %4, i64 8, !dbg !152
  store i64 8, ptr %.fca.1.gep.i1127, align 8, !dbg !152, !tbaa !118
  %.fca.2.gep.i1128 = getelementptr inbounds i8, ptr %4, i64 16, !dbg !152
  store i32 20180515, ptr %.fca.2.gep.i1128, align 8, !dbg !152, !tbaa !118
  %.fca.3.gep.i1129 = getelementptr inbounds i8, ptr %4, i64 20, !dbg !152
  store i8 1, ptr %.fca.3.gep.i1129, align 4, !dbg !152, !tbaa !118
  %.fca.4.gep.i1130 = getelementptr inbounds i8, ptr %4, i64 21, !dbg !152
  store i8 28, ptr %.fca.4.gep.i1130, align 1, !dbg !152, !tbaa !118
  %.fca.5.gep.i1131 = getelementptr inbounds i8, ptr %4, i64 22, !dbg !152
  store i8 0, ptr %.fca.5.gep.i1131, align 2, !dbg !152, !tbaa !118
  %.fca.6.gep.i1132 = getelementptr inbounds i8, ptr %4, i64 23, !dbg !152
  store i8 0, ptr %.fca.6.gep.i1132, align 1, !dbg !152, !tbaa !118
  %.fca.7.0.0.gep.i1133 = getelementptr inbounds i8, ptr %4, i64 24, !dbg !152
  store i64 1, ptr %.fca.7.0.0.gep.i1133, align 8, !dbg !152, !tbaa !118
  %.fca.7.0.1.gep.i1134 = getelementptr inbounds i8, ptr %4, i64 32, !dbg !152
  store i64 %.unpack1000.unpack.unpack1002, ptr %.fca.7.0.1.gep.i1134, align 8, !dbg !152, !tbaa !118
  %.fca.7.0.2.gep.i1135 = getelementptr inbounds i8, ptr %4, i64 40, !dbg !152
  store i64 %.unpack1000.unpack.unpack1003, ptr %.fca.7.0.2.gep.i1135, align 8, !dbg !152, !tbaa !118
    #dbg_declare(ptr %12, !122, !DIExpression(), !191)
    #dbg_declare(ptr undef, !123, !DIExpression(), !192)
    #dbg_declare(ptr undef, !125, !DIExpression(), !193)
  store ptr %4, ptr %structArg.i1126, align 8
  %gep_25.i = getelementptr inbounds i8, ptr %structArg.i1126, i64 8
  store ptr %12, ptr %gep_25.i, align 8
  %gep_26.i = getelementptr inbounds i8, ptr %structArg.i1126, i64 16
  store ptr %13, ptr %gep_26.i, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @13, i32 1, ptr nonnull @_QMkernelsPphases..omp_par, ptr nonnull %structArg.i1126), !dbg !194
  call void @llvm.lifetime.end.p0(i64 24, ptr nonnull %structArg.i1126), !dbg !195
  call void @llvm.lifetime.end.p0(i64 48, ptr nonnull %4), !dbg !195
  %.unpack1017 = load ptr, ptr @_QFEx, align 16, !dbg !161, !tbaa !167
  %.unpack1024.unpack.unpack = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 24), align 8, !dbg !161, !tbaa !167
  %33 = sub i64 100, %.unpack1024.unpack.unpack, !dbg !161
  %34 = getelementptr double, ptr %.unpack1017, i64 %33, !dbg !161
  store ptr %34, ptr %11, align 8, !dbg !161, !tbaa !167
  %.fca.1.gep560 = getelementptr inbounds i8, ptr %11, i64 8, !dbg !161
  store i64 8, ptr %.fca.1.gep560, align 8, !dbg !161, !tbaa !167
  %.fca.2.gep562 = getelementptr inbounds i8, ptr %11, i64 16, !dbg !161
  store i32 20180515, ptr %.fca.2.gep562, align 8, !dbg !161, !tbaa !167
  %.fca.3.gep564 = getelementptr inbounds i8, ptr %11, i64 20, !dbg !161
  store i8 1, ptr %.fca.3.gep564, align 4, !dbg !161, !tbaa !167
  %.fca.4.gep566 = getelementptr inbounds i8, ptr %11, i64 21, !dbg !161
  store i8 28, ptr %.fca.4.gep566, align 1, !dbg !161, !tbaa !167
  %.fca.5.gep568 = getelementptr inbounds i8, ptr %11, i64 22, !dbg !161
  store i8 0, ptr %.fca.5.gep568, align 2, !dbg !161, !tbaa !167
  %.fca.6.gep570 = getelementptr inbounds i8, ptr %11, i64 23, !dbg !161
  store i8 0, ptr %.fca.6.gep570, align 1, !dbg !161, !tbaa !167
  %.fca.7.0.0.gep572 = getelementptr inbounds i8, ptr %11, i64 24, !dbg !161
  store i64 1, ptr %.fca.7.0.0.gep572, align 8, !dbg !161, !tbaa !167
  %.fca.7.0.1.gep574 = getelementptr inbounds i8, ptr %11, i64 32, !dbg !161
  store i64 100, ptr %.fca.7.0.1.gep574, align 8, !dbg !161, !tbaa !167
  %.fca.7.0.2.gep576 = getelementptr inbounds i8, ptr %11, i64 40, !dbg !161
  store i64 -8, ptr %.fca.7.0.2.gep576, align 8, !dbg !161, !tbaa !167
  %35 = call {} @_FortranAAssign(ptr nonnull @_QFEy, ptr nonnull %11, ptr nonnull @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 72), !dbg !161
  %.unpack1029 = load ptr, ptr @_QFEm.0, align 8, !dbg !196, !tbaa !167
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %.unpack1029, align 8, !dbg !196, !tbaa !197
  %36 = getelementptr i8, ptr %.unpack1029, i64 16, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %36, align 8, !dbg !196, !tbaa !197
  %37 = getelementptr i8, ptr %.unpack1029, i64 32, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %37, align 8, !dbg !196, !tbaa !197
  %38 = getelementptr i8, ptr %.unpack1029, i64 48, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %38, align 8, !dbg !196, !tbaa !197
  %39 = getelementptr i8, ptr %.unpack1029, i64 64, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %39, align 8, !dbg !196, !tbaa !197
  %40 = getelementptr i8, ptr %.unpack1029, i64 80, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %40, align 8, !dbg !196, !tbaa !197
  %41 = getelementptr i8, ptr %.unpack1029, i64 96, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %41, align 8, !dbg !196, !tbaa !197
  %42 = getelementptr i8, ptr %.unpack1029, i64 112, !dbg !196
  store <2 x double> <double 1.000000e+00, double 1.000000e+00>, ptr %42, align 8, !dbg !196, !tbaa !197
  store ptr %.unpack1029, ptr %10, align 8, !dbg !160, !tbaa !167
  %.fca.1.gep658 = getelementptr inbounds i8, ptr %10, i64 8, !dbg !160
  store i64 8, ptr %.fca.1.gep658, align 8, !dbg !160, !tbaa !167
  %.fca.2.gep660 = getelementptr inbounds i8, ptr %10, i64 16, !dbg !160
  store i32 20180515, ptr %.fca.2.gep660, align 8, !dbg !160, !tbaa !167
  %.fca.3.gep662 = getelementptr inbounds i8, ptr %10, i64 20, !dbg !160
  store i8 2, ptr %.fca.3.gep662, align 4, !dbg !160, !tbaa !167
  %.fca.4.gep664 = getelementptr inbounds i8, ptr %10, i64 21, !dbg !160
  store i8 28, ptr %.fca.4.gep664, align 1, !dbg !160, !tbaa !167
  %.fca.5.gep666 = getelementptr inbounds i8, ptr %10, i64 22, !dbg !160
  store i8 0, ptr %.fca.5.gep666, align 2, !dbg !160, !tbaa !167
  %.fca.6.gep668 = getelementptr inbounds i8, ptr %10, i64 23, !dbg !160
  store i8 0, ptr %.fca.6.gep668, align 1, !dbg !160, !tbaa !167
  %.fca.7.0.0.gep670 = getelementptr inbounds i8, ptr %10, i64 24, !dbg !160
  store i64 1, ptr %.fca.7.0.0.gep670, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.1.gep672 = getelementptr inbounds i8, ptr %10, i64 32, !dbg !160
  store i64 4, ptr %.fca.7.0.1.gep672, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.2.gep674 = getelementptr inbounds i8, ptr %10, i64 40, !dbg !160
  store i64 8, ptr %.fca.7.0.2.gep674, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.0.gep676 = getelementptr inbounds i8, ptr %10, i64 48, !dbg !160
  store i64 1, ptr %.fca.7.1.0.gep676, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.1.gep678 = getelementptr inbounds i8, ptr %10, i64 56, !dbg !160
  store i64 4, ptr %.fca.7.1.1.gep678, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.2.gep680 = getelementptr inbounds i8, ptr %10, i64 64, !dbg !160
  store i64 32, ptr %.fca.7.1.2.gep680, align 8, !dbg !160, !tbaa !167
  store ptr null, ptr %18, align 8, !dbg !160, !tbaa !167
  %.fca.1.gep = getelementptr inbounds i8, ptr %18, i64 8, !dbg !160
  store i64 8, ptr %.fca.1.gep, align 8, !dbg !160, !tbaa !167
  %.fca.2.gep = getelementptr inbounds i8, ptr %18, i64 16, !dbg !160
  store i32 20180515, ptr %.fca.2.gep, align 8, !dbg !160, !tbaa !167
  %.fca.3.gep = getelementptr inbounds i8, ptr %18, i64 20, !dbg !160
  store i8 2, ptr %.fca.3.gep, align 4, !dbg !160, !tbaa !167
  %.fca.4.gep = getelementptr inbounds i8, ptr %18, i64 21, !dbg !160
  store i8 28, ptr %.fca.4.gep, align 1, !dbg !160, !tbaa !167
  %.fca.5.gep = getelementptr inbounds i8, ptr %18, i64 22, !dbg !160
  store i8 2, ptr %.fca.5.gep, align 2, !dbg !160, !tbaa !167
  %.fca.6.gep = getelementptr inbounds i8, ptr %18, i64 23, !dbg !160
  store i8 0, ptr %.fca.6.gep, align 1, !dbg !160, !tbaa !167
  %.fca.7.0.0.gep = getelementptr inbounds i8, ptr %18, i64 24, !dbg !160
  store i64 1, ptr %.fca.7.0.0.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.1.gep = getelementptr inbounds i8, ptr %18, i64 32, !dbg !160
  store i64 0, ptr %.fca.7.0.1.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.2.gep = getelementptr inbounds i8, ptr %18, i64 40, !dbg !160
  store i64 8, ptr %.fca.7.0.2.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.0.gep = getelementptr inbounds i8, ptr %18, i64 48, !dbg !160
  store i64 1, ptr %.fca.7.1.0.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.1.gep = getelementptr inbounds i8, ptr %18, i64 56, !dbg !160
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(16) %.fca.7.1.1.gep, i8 0, i64 16, i1 false), !dbg !160
  %43 = call {} @_FortranAMatmulReal8Real8(ptr nonnull %18, ptr nonnull %10, ptr nonnull %10, ptr nonnull @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 74), !dbg !160
  %.fca.0.load = load ptr, ptr %18, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.0.load = load i64, ptr %.fca.7.0.0.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.1.load = load i64, ptr %.fca.7.0.1.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.0.load = load i64, ptr %.fca.7.1.0.gep, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.1.load = load i64, ptr %.fca.7.1.1.gep, align 8, !dbg !160, !tbaa !167
  %44 = icmp eq i64 %.fca.7.0.1.load, 0, !dbg !160
  %45 = select i1 %44, i64 1, i64 %.fca.7.0.0.load, !dbg !160
  %46 = shl i64 %.fca.7.0.1.load, 3, !dbg !160
  %47 = icmp eq i64 %.fca.7.1.1.load, 0, !dbg !160
  %48 = select i1 %47, i64 1, i64 %.fca.7.1.0.load, !dbg !160
  store ptr %.fca.0.load, ptr %9, align 8, !dbg !160, !tbaa !167
  %.fca.1.gep762 = getelementptr inbounds i8, ptr %9, i64 8, !dbg !160
  store i64 8, ptr %.fca.1.gep762, align 8, !dbg !160, !tbaa !167
  %.fca.2.gep764 = getelementptr inbounds i8, ptr %9, i64 16, !dbg !160
  store i32 20180515, ptr %.fca.2.gep764, align 8, !dbg !160, !tbaa !167
  %.fca.3.gep766 = getelementptr inbounds i8, ptr %9, i64 20, !dbg !160
  store i8 2, ptr %.fca.3.gep766, align 4, !dbg !160, !tbaa !167
  %.fca.4.gep768 = getelementptr inbounds i8, ptr %9, i64 21, !dbg !160
  store i8 28, ptr %.fca.4.gep768, align 1, !dbg !160, !tbaa !167
  %.fca.5.gep770 = getelementptr inbounds i8, ptr %9, i64 22, !dbg !160
  store i8 0, ptr %.fca.5.gep770, align 2, !dbg !160, !tbaa !167
  %.fca.6.gep772 = getelementptr inbounds i8, ptr %9, i64 23, !dbg !160
  store i8 0, ptr %.fca.6.gep772, align 1, !dbg !160, !tbaa !167
  %.fca.7.0.0.gep774 = getelementptr inbounds i8, ptr %9, i64 24, !dbg !160
  store i64 %45, ptr %.fca.7.0.0.gep774, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.1.gep776 = getelementptr inbounds i8, ptr %9, i64 32, !dbg !160
  store i64 %.fca.7.0.1.load, ptr %.fca.7.0.1.gep776, align 8, !dbg !160, !tbaa !167
  %.fca.7.0.2.gep778 = getelementptr inbounds i8, ptr %9, i64 40, !dbg !160
  store i64 8, ptr %.fca.7.0.2.gep778, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.0.gep780 = getelementptr inbounds i8, ptr %9, i64 48, !dbg !160
  store i64 %48, ptr %.fca.7.1.0.gep780, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.1.gep782 = getelementptr inbounds i8, ptr %9, i64 56, !dbg !160
  store i64 %.fca.7.1.1.load, ptr %.fca.7.1.1.gep782, align 8, !dbg !160, !tbaa !167
  %.fca.7.1.2.gep784 = getelementptr inbounds i8, ptr %9, i64 64, !dbg !160
  store i64 %46, ptr %.fca.7.1.2.gep784, align 8, !dbg !160, !tbaa !167
  %49 = call {} @_FortranAAssign(ptr nonnull @_QFEp, ptr nonnull %9, ptr nonnull @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 74), !dbg !160
  call void @free(ptr %.fca.0.load), !dbg !160
  %50 = call ptr @_FortranAioBeginExternalListOutput(i32 6, ptr nonnull @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 75), !dbg !199
  %.unpack1061 = load ptr, ptr @_QFEx, align 16, !dbg !159, !tbaa !167
  %.unpack1068.unpack.unpack1070 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 32), align 16, !dbg !159, !tbaa !167
  %.unpack1068.unpack.unpack1071 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEx, i64 40), align 8, !dbg !159, !tbaa !167
  store ptr %.unpack1061, ptr %8, align 8, !dbg !159, !tbaa !167
  %.fca.1.gep818 = getelementptr inbounds i8, ptr %8, i64 8, !dbg !159
  store i64 8, ptr %.fca.1.gep818, align 8, !dbg !159, !tbaa !167
  %.fca.2.gep820 = getelementptr inbounds i8, ptr %8, i64 16, !dbg !159
  store i32 20180515, ptr %.fca.2.gep820, align 8, !dbg !159, !tbaa !167
  %.fca.3.gep822 = getelementptr inbounds i8, ptr %8, i64 20, !dbg !159
  store i8 1, ptr %.fca.3.gep822, align 4, !dbg !159, !tbaa !167
  %.fca.4.gep824 = getelementptr inbounds i8, ptr %8, i64 21, !dbg !159
  store i8 28, ptr %.fca.4.gep824, align 1, !dbg !159, !tbaa !167
  %.fca.5.gep826 = getelementptr inbounds i8, ptr %8, i64 22, !dbg !159
  store i8 0, ptr %.fca.5.gep826, align 2, !dbg !159, !tbaa !167
  %.fca.6.gep828 = getelementptr inbounds i8, ptr %8, i64 23, !dbg !159
  store i8 0, ptr %.fca.6.gep828, align 1, !dbg !159, !tbaa !167
  %.fca.7.0.0.gep830 = getelementptr inbounds i8, ptr %8, i64 24, !dbg !159
  store i64 1, ptr %.fca.7.0.0.gep830, align 8, !dbg !159, !tbaa !167
  %.fca.7.0.1.gep832 = getelementptr inbounds i8, ptr %8, i64 32, !dbg !159
  store i64 %.unpack1068.unpack.unpack1070, ptr %.fca.7.0.1.gep832, align 8, !dbg !159, !tbaa !167
  %.fca.7.0.2.gep834 = getelementptr inbounds i8, ptr %8, i64 40, !dbg !159
  store i64 %.unpack1068.unpack.unpack1071, ptr %.fca.7.0.2.gep834, align 8, !dbg !159, !tbaa !167
  call void @llvm.lifetime.start.p0(i64 24, ptr nonnull %structArg.i1137), !dbg !151
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %2), !dbg !151
  call void @llvm.lifetime.start.p0(i64 48, ptr nonnull %3), !dbg !151
    #dbg_declare(ptr %8, !89, !DIExpression(), !200)
  store ptr %.unpack1061, ptr %3, align 8, !dbg !151, !tbaa !91
  %.fca.1.gep.i1138 = getelementptr inbounds i8, ptr %3, i64 8, !dbg !151
  store i64 8, ptr %.fca.1.gep.i1138, align 8, !dbg !151, !tbaa !91
  %.fca.2.gep.i1139 = getelementptr inbounds i8, ptr %3, i64 16, !dbg !151
  store i32 20180515, ptr %.fca.2.gep.i1139, align 8, !dbg !151, !tbaa !91
  %.fca.3.gep.i1140 = getelementptr inbounds i8, ptr %3, i64 20, !dbg !151
  store i8 1, ptr %.fca.3.gep.i1140, align 4, !dbg !151, !tbaa !91
  %.fca.4.gep.i1141 = getelementptr inbounds i8, ptr %3, i64 21, !dbg !151
  store i8 28, ptr %.fca.4.gep.i1141, align 1, !dbg !151, !tbaa !91
  %.fca.5.gep.i1142 = getelementptr inbounds i8, ptr %3, i64 22, !dbg !151
  store i8 0, ptr %.fca.5.gep.i1142, align 2, !dbg !151, !tbaa !91
  %.fca.6.gep.i1143 = getelementptr inbounds i8, ptr %3, i64 23, !dbg !151
  store i8 0, ptr %.fca.6.gep.i1143, align 1, !dbg !151, !tbaa !91
  %.fca.7.0.0.gep.i1144 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !151
  store i64 1, ptr %.fca.7.0.0.gep.i1144, align 8, !dbg !151, !tbaa !91
  %.fca.7.0.1.gep.i1145 = getelementptr inbounds i8, ptr %3, i64 32, !dbg !151
  store i64 %.unpack1068.unpack.unpack1070, ptr %.fca.7.0.1.gep.i1145, align 8, !dbg !151, !tbaa !91
  %.fca.7.0.2.gep.i1146 = getelementptr inbounds i8, ptr %3, i64 40, !dbg !151
  store i64 %.unpack1068.unpack.unpack1071, ptr %.fca.7.0.2.gep.i1146, align 8, !dbg !151, !tbaa !91
    #dbg_declare(ptr undef, !95, !DIExpression(), !201)
    #dbg_value(double 0.000000e+00, !97, !DIExpression(), !202)
  store double 0.000000e+00, ptr %2, align 8, !dbg !203, !tbaa !100
  store ptr %3, ptr %structArg.i1137, align 8
  %gep_7.i = getelementptr inbounds i8, ptr %structArg.i1137, i64 8
  store ptr %2, ptr %gep_7.i, align 8
  %gep_8.i = getelementptr inbounds i8, ptr %structArg.i1137, i64 16
  store ptr %8, ptr %gep_8.i, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @7, i32 1, ptr nonnull @_QMkernelsPtotal..omp_par, ptr nonnull %structArg.i1137), !dbg !201
  %51 = load double, ptr %2, align 8, !dbg !204, !tbaa !100
    #dbg_value(double %51, !97, !DIExpression(), !202)
  call void @llvm.lifetime.end.p0(i64 24, ptr nonnull %structArg.i1137), !dbg !204
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %2), !dbg !204
  call void @llvm.lifetime.end.p0(i64 48, ptr nonnull %3), !dbg !204
  %52 = call i1 @_FortranAioOutputReal64(ptr %50, double %51), !dbg !159
  %.unpack1073 = load ptr, ptr @_QFEy, align 16, !dbg !158, !tbaa !167
  %.unpack1080.unpack.unpack1082 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 32), align 16, !dbg !158, !tbaa !167
  %.unpack1080.unpack.unpack1083 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEy, i64 40), align 8, !dbg !158, !tbaa !167
  store ptr %.unpack1073, ptr %7, align 8, !dbg !158, !tbaa !167
  %.fca.1.gep868 = getelementptr inbounds i8, ptr %7, i64 8, !dbg !158
  store i64 8, ptr %.fca.1.gep868, align 8, !dbg !158, !tbaa !167
  %.fca.2.gep870 = getelementptr inbounds i8, ptr %7, i64 16, !dbg !158
  store i32 20180515, ptr %.fca.2.gep870, align 8, !dbg !158, !tbaa !167
  %.fca.3.gep872 = getelementptr inbounds i8, ptr %7, i64 20, !dbg !158
  store i8 1, ptr %.fca.3.gep872, align 4, !dbg !158, !tbaa !167
  %.fca.4.gep874 = getelementptr inbounds i8, ptr %7, i64 21, !dbg !158
  store i8 28, ptr %.fca.4.gep874, align 1, !dbg !158, !tbaa !167
  %.fca.5.gep876 = getelementptr inbounds i8, ptr %7, i64 22, !dbg !158
  store i8 0, ptr %.fca.5.gep876, align 2, !dbg !158, !tbaa !167
  %.fca.6.gep878 = getelementptr inbounds i8, ptr %7, i64 23, !dbg !158
  store i8 0, ptr %.fca.6.gep878, align 1, !dbg !158, !tbaa !167
  %.fca.7.0.0.gep880 = getelementptr inbounds i8, ptr %7, i64 24, !dbg !158
  store i64 1, ptr %.fca.7.0.0.gep880, align 8, !dbg !158, !tbaa !167
  %.fca.7.0.1.gep882 = getelementptr inbounds i8, ptr %7, i64 32, !dbg !158
  store i64 %.unpack1080.unpack.unpack1082, ptr %.fca.7.0.1.gep882, align 8, !dbg !158, !tbaa !167
  %.fca.7.0.2.gep884 = getelementptr inbounds i8, ptr %7, i64 40, !dbg !158
  store i64 %.unpack1080.unpack.unpack1083, ptr %.fca.7.0.2.gep884, align 8, !dbg !158, !tbaa !167
  call void @llvm.lifetime.start.p0(i64 24, ptr nonnull %structArg.i1148), !dbg !148
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %0), !dbg !148
  call void @llvm.lifetime.start.p0(i64 48, ptr nonnull %1), !dbg !148
    #dbg_declare(ptr %7, !89, !DIExpression(), !205)
  store ptr %.unpack1073, ptr %1, align 8, !dbg !148, !tbaa !91
  %.fca.1.gep.i1149 = getelementptr inbounds i8, ptr %1, i64 8, !dbg !148
  store i64 8, ptr %.fca.1.gep.i1149, align 8, !dbg !148, !tbaa !91
  %.fca.2.gep.i1150 = getelementptr inbounds i8, ptr %1, i64 16, !dbg !148
  store i32 20180515, ptr %.fca.2.gep.i1150, align 8, !dbg !148, !tbaa !91
  %.fca.3.gep.i1151 = getelementptr inbounds i8, ptr %1, i64 20, !dbg !148
  store i8 1, ptr %.fca.3.gep.i1151, align 4, !dbg !148, !tbaa !91
  %.fca.4.gep.i1152 = getelementptr inbounds i8, ptr %1, i64 21, !dbg !148
  store i8 28, ptr %.fca.4.gep.i1152, align 1, !dbg !148, !tbaa !91
  %.fca.5.gep.i1153 = getelementptr inbounds i8, ptr %1, i64 22, !dbg !148
  store i8 0, ptr %.fca.5.gep.i1153, align 2, !dbg !148, !tbaa !91
  %.fca.6.gep.i1154 = getelementptr inbounds i8, ptr %1, i64 23, !dbg !148
  store i8 0, ptr %.fca.6.gep.i1154, align 1, !dbg !148, !tbaa !91
  %.fca.7.0.0.gep.i1155 = getelementptr inbounds i8, ptr %1, i64 24, !dbg !148
  store i64 1, ptr %.fca.7.0.0.gep.i1155, align 8, !dbg !148, !tbaa !91
  %.fca.7.0.1.gep.i1156 = getelementptr inbounds i8, ptr %1, i64 32, !dbg !148
  store i64 %.unpack1080.unpack.unpack1082, ptr %.fca.7.0.1.gep.i1156, align 8, !dbg !148, !tbaa !91
  %.fca.7.0.2.gep.i1157 = getelementptr inbounds i8, ptr %1, i64 40, !dbg !148
  store i64 %.unpack1080.unpack.unpack1083, ptr %.fca.7.0.2.gep.i1157, align 8, !dbg !148, !tbaa !91
    #dbg_declare(ptr undef, !95, !DIExpression(), !206)
    #dbg_value(double 0.000000e+00, !97, !DIExpression(), !207)
  store double 0.000000e+00, ptr %0, align 8, !dbg !208, !tbaa !100
  store ptr %1, ptr %structArg.i1148, align 8
  %gep_7.i1159 = getelementptr inbounds i8, ptr %structArg.i1148, i64 8
  store ptr %0, ptr %gep_7.i1159, align 8
  %gep_8.i1160 = getelementptr inbounds i8, ptr %structArg.i1148, i64 16
  store ptr %7, ptr %gep_8.i1160, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @7, i32 1, ptr nonnull @_QMkernelsPtotal..omp_par, ptr nonnull %structArg.i1148), !dbg !206
  %53 = load double, ptr %0, align 8, !dbg !209, !tbaa !100
    #dbg_value(double %53, !97, !DIExpression(), !207)
  call void @llvm.lifetime.end.p0(i64 24, ptr nonnull %structArg.i1148), !dbg !209
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %0), !dbg !209
  call void @llvm.lifetime.end.p0(i64 48, ptr nonnull %1), !dbg !209
  %54 = call i1 @_FortranAioOutputReal64(ptr %50, double %53), !dbg !158
  %.unpack1085 = load ptr, ptr @_QFEp, align 16, !dbg !210, !tbaa !167
  %.unpack1092.unpack.unpack = load i64, ptr getelementptr inbounds (i8, ptr @_QFEp, i64 24), align 8, !dbg !210, !tbaa !167
  %.unpack1092.unpack.unpack1095 = load i64, ptr getelementptr inbounds (i8, ptr @_QFEp, i64 32), align 16, !dbg !210, !tbaa !167
  %.unpack1092.unpack1093.unpack = load i64, ptr getelementptr inbounds (i8, ptr @_QFEp, i64 48), align 16, !dbg !210, !tbaa !167
  %55 = sub nsw i64 1, %.unpack1092.unpack1093.unpack, !dbg !210
  %56 = mul nsw i64 %55, %.unpack1092.unpack.unpack1095, !dbg !210
  %reass.sub = sub i64 %56, %.unpack1092.unpack.unpack, !dbg !210
  %57 = getelementptr double, ptr %.unpack1085, i64 %reass.sub, !dbg !210
  %58 = getelementptr i8, ptr %57, i64 8, !dbg !210
  %59 = load double, ptr %58, align 8, !dbg !210, !tbaa !211
  %60 = call i1 @_FortranAioOutputReal64(ptr %50, double %59), !dbg !210
  %61 = call i32 @_FortranAioEndIoStatement(ptr %50), !dbg !199
  ret void, !dbg !213
}

declare !dbg !214 ptr @_FortranAioBeginExternalListOutput(i32, ptr, i32) local_unnamed_addr

declare !dbg !218 zeroext i1 @_FortranAioOutputReal64(ptr, double) local_unnamed_addr

declare !dbg !222 i32 @_FortranAioEndIoStatement(ptr) local_unnamed_addr

declare !dbg !225 void @_FortranAProgramStart(i32, ptr, ptr, ptr) local_unnamed_addr

declare !dbg !228 void @_FortranAProgramEndStatement() local_unnamed_addr

define noundef i32 @main(i32 %0, ptr %1, ptr %2) local_unnamed_addr #3 !dbg !230 {
  tail call void @_FortranAProgramStart(i32 %0, ptr %1, ptr %2, ptr null), !dbg !231
  tail call void @_QQmain(), !dbg !231
  tail call void @_FortranAProgramEndStatement(), !dbg !231
  ret i32 0, !dbg !231
}

declare !dbg !232 {} @_FortranAMatmulReal8Real8(ptr, ptr, ptr, ptr, i32) local_unnamed_addr

declare !dbg !235 {} @_FortranAAssign(ptr, ptr, ptr, i32) local_unnamed_addr

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr #4

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #4

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr #5

; Function Attrs: nounwind
declare void @__kmpc_dispatch_init_4u(ptr, i32, i32, i32, i32, i32, i32) local_unnamed_addr #4

; Function Attrs: nounwind
declare i32 @__kmpc_dispatch_next_4u(ptr, i32, ptr, ptr, ptr, ptr) local_unnamed_addr #4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none)
define internal void @.omp.reduction.func(ptr nocapture readonly %0, ptr nocapture readonly %1) #6 {
  %3 = load ptr, ptr %0, align 8
  %4 = load double, ptr %3, align 8
  %5 = load ptr, ptr %1, align 8
  %6 = load double, ptr %5, align 8
  %7 = fadd contract double %4, %6
  store double %7, ptr %3, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr #5

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce(ptr, i32, ptr) local_unnamed_addr #5

; Function Attrs: nounwind
declare !callback !238 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32) #7

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #8

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #8

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #9

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32) #7

attributes #0 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #1 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" }
attributes #2 = { nounwind "target-cpu"="x86-64" }
attributes #3 = { "target-cpu"="x86-64" }
attributes #4 = { nounwind }
attributes #5 = { convergent nounwind }
attributes #6 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none) }
attributes #7 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #8 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #9 = { nocallback nofree nounwind willreturn memory(argmem: write) }

!llvm.module.flags = !{!22, !23, !24, !25}
!llvm.dbg.cu = !{!6}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 64))
!1 = distinct !DIGlobalVariable(name: "m", linkageName: "_QFEm", scope: !2, file: !3, line: 62, type: !11, isLocal: false, isDefinition: true)
!2 = distinct !DISubprogram(name: "_QQmain", linkageName: "_QQmain", scope: !3, file: !3, line: 59, type: !4, scopeLine: 59, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!3 = !DIFile(filename: "omp_fortran.f90", directory: "/work/main/pass/tests/ir")
!4 = !DISubroutineType(cc: DW_CC_program, types: !5)
!5 = !{}
!6 = distinct !DICompileUnit(language: DW_LANG_Fortran95, file: !3, producer: "Debian flang version 19.1.7", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !7)
!7 = !{!8, !9, !16, !20}
!8 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!9 = !DIGlobalVariableExpression(var: !10, expr: !DIExpression())
!10 = distinct !DIGlobalVariable(name: "p", linkageName: "_QFEp", scope: !2, file: !3, line: 62, type: !11, isLocal: false, isDefinition: true)
!11 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, elements: !13, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref), allocated: !DIExpression(DW_OP_push_object_address, DW_OP_deref, DW_OP_lit0, DW_OP_ne))
!12 = !DIBasicType(name: "real", size: 64, encoding: DW_ATE_float)
!13 = !{!14, !15}
!14 = !DISubrange(count: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 32, DW_OP_deref), lowerBound: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 24, DW_OP_deref))
!15 = !DISubrange(count: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 56, DW_OP_deref), lowerBound: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 48, DW_OP_deref))
!16 = !DIGlobalVariableExpression(var: !17, expr: !DIExpression())
!17 = distinct !DIGlobalVariable(name: "x", linkageName: "_QFEx", scope: !2, file: !3, line: 62, type: !18, isLocal: false, isDefinition: true)
!18 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, elements: !19, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref), allocated: !DIExpression(DW_OP_push_object_address, DW_OP_deref, DW_OP_lit0, DW_OP_ne))
!19 = !{!14}
!20 = !DIGlobalVariableExpression(var: !21, expr: !DIExpression())
!21 = distinct !DIGlobalVariable(name: "y", linkageName: "_QFEy", scope: !2, file: !3, line: 62, type: !18, isLocal: false, isDefinition: true)
!22 = !{i32 2, !"Debug Info Version", i32 3}
!23 = !{i32 7, !"openmp", i32 11}
!24 = !{i32 8, !"PIC Level", i32 2}
!25 = !{i32 7, !"PIE Level", i32 2}
!26 = distinct !DISubprogram(name: "scale", linkageName: "_QMkernelsPscale", scope: !27, file: !3, line: 10, type: !28, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!27 = !DIModule(scope: !6, name: "kernels", file: !3, line: 9)
!28 = !DISubroutineType(cc: DW_CC_normal, types: !29)
!29 = !{!30, !12}
!30 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, elements: !19, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref))
!31 = !DILocation(line: 11, column: 31, scope: !26)
!32 = !DILocalVariable(name: "a", arg: 1, scope: !26, file: !3, line: 11, type: !30)
!33 = !DILocation(line: 10, column: 3, scope: !26)
!34 = !{!35, !35, i64 0}
!35 = !{!"descriptor member", !36, i64 0}
!36 = !{!"any access", !37, i64 0}
!37 = !{!"Flang function root _QMkernelsPscale"}
!38 = !DILocalVariable(name: "f", arg: 2, scope: !26, file: !3, line: 12, type: !12)
!39 = !DILocalVariable(name: "i", scope: !26, file: !3, line: 13, type: !40)
!40 = !DIBasicType(name: "integer", size: 32, encoding: DW_ATE_signed)
!41 = !DILocation(line: 13, column: 16, scope: !26)
!42 = !DILocation(line: 14, column: 11, scope: !26)
!43 = !DILocation(line: 18, column: 3, scope: !26)
!44 = distinct !DISubprogram(name: "_QMkernelsPscale..omp_par", linkageName: "_QMkernelsPscale..omp_par", scope: null, file: !3, type: !45, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!45 = !DISubroutineType(types: !5)
!46 = !DILocation(line: 10, column: 3, scope: !44)
!47 = !DILocation(line: 14, column: 11, scope: !44)
!48 = !{!49, !49, i64 0}
!49 = !{!"dummy arg data/_QMkernelsFscaleEf", !50, i64 0}
!50 = !{!"dummy arg data", !51, i64 0}
!51 = !{!"any data access", !36, i64 0}
!52 = !DILocalVariable(name: "i", scope: !44, file: !3, line: 13, type: !40)
!53 = !DILocation(line: 0, scope: !44)
!54 = !DILocation(line: 16, column: 7, scope: !44)
!55 = !{!56, !56, i64 0}
!56 = !{!"dummy arg data/_QMkernelsFscaleEa", !50, i64 0}
!57 = distinct !DISubprogram(name: "dyn", linkageName: "_QMkernelsPdyn", scope: !27, file: !3, line: 20, type: !58, scopeLine: 20, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!58 = !DISubroutineType(cc: DW_CC_normal, types: !59)
!59 = !{!30, !30}
!60 = !DILocation(line: 21, column: 31, scope: !57)
!61 = !DILocalVariable(name: "a", arg: 1, scope: !57, file: !3, line: 21, type: !30)
!62 = !DILocation(line: 20, column: 3, scope: !57)
!63 = !{!64, !64, i64 0}
!64 = !{!"descriptor member", !65, i64 0}
!65 = !{!"any access", !66, i64 0}
!66 = !{!"Flang function root _QMkernelsPdyn"}
!67 = !DILocalVariable(name: "b", arg: 2, scope: !57, file: !3, line: 22, type: !30)
!68 = !DILocalVariable(name: "i", scope: !57, file: !3, line: 23, type: !40)
!69 = !DILocation(line: 23, column: 16, scope: !57)
!70 = !DILocation(line: 24, column: 11, scope: !57)
!71 = !DILocation(line: 28, column: 3, scope: !57)
!72 = distinct !DISubprogram(name: "_QMkernelsPdyn..omp_par", linkageName: "_QMkernelsPdyn..omp_par", scope: null, file: !3, type: !45, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!73 = !DILocation(line: 20, column: 3, scope: !72)
!74 = !DILocation(line: 24, column: 11, scope: !72)
!75 = !DILocalVariable(name: "i", scope: !72, file: !3, line: 23, type: !40)
!76 = !DILocation(line: 0, scope: !72)
!77 = !DILocation(line: 26, column: 7, scope: !72)
!78 = !{!79, !79, i64 0}
!79 = !{!"dummy arg data/_QMkernelsFdynEa", !80, i64 0}
!80 = !{!"dummy arg data", !81, i64 0}
!81 = !{!"any data access", !65, i64 0}
!82 = !{!83, !83, i64 0}
!83 = !{!"dummy arg data/_QMkernelsFdynEb", !80, i64 0}
!84 = distinct !DISubprogram(name: "total", linkageName: "_QMkernelsPtotal", scope: !27, file: !3, line: 30, type: !85, scopeLine: 30, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!85 = !DISubroutineType(cc: DW_CC_normal, types: !86)
!86 = !{!12, !30}
!87 = !DILocation(line: 32, column: 16, scope: !84)
!88 = !DILocation(line: 31, column: 28, scope: !84)
!89 = !DILocalVariable(name: "a", arg: 1, scope: !84, file: !3, line: 31, type: !30)
!90 = !DILocation(line: 30, column: 3, scope: !84)
!91 = !{!92, !92, i64 0}
!92 = !{!"descriptor member", !93, i64 0}
!93 = !{!"any access", !94, i64 0}
!94 = !{!"Flang function root _QMkernelsPtotal"}
!95 = !DILocalVariable(name: "i", scope: !84, file: !3, line: 33, type: !40)
!96 = !DILocation(line: 33, column: 16, scope: !84)
!97 = !DILocalVariable(name: "s", scope: !84, file: !3, line: 32, type: !12)
!98 = !DILocation(line: 0, scope: !84)
!99 = !DILocation(line: 34, column: 5, scope: !84)
!100 = !{!101, !101, i64 0}
!101 = !{!"any data access", !93, i64 0}
!102 = !DILocation(line: 35, column: 11, scope: !84)
!103 = !DILocation(line: 39, column: 3, scope: !84)
!104 = distinct !DISubprogram(name: "_QMkernelsPtotal..omp_par", linkageName: "_QMkernelsPtotal..omp_par", scope: null, file: !3, type: !45, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!105 = !DILocation(line: 34, column: 5, scope: !104)
!106 = !DILocalVariable(name: "s", scope: !104, file: !3, line: 32, type: !12)
!107 = !DILocation(line: 0, scope: !104)
!108 = !DILocation(line: 35, column: 11, scope: !104)
!109 = !DILocalVariable(name: "i", scope: !104, file: !3, line: 33, type: !40)
!110 = !DILocation(line: 37, column: 7, scope: !104)
!111 = !{!112, !112, i64 0}
!112 = !{!"dummy arg data/_QMkernelsFtotalEa", !113, i64 0}
!113 = !{!"dummy arg data", !101, i64 0}
!114 = distinct !DISubprogram(name: "phases", linkageName: "_QMkernelsPphases", scope: !27, file: !3, line: 41, type: !58, scopeLine: 41, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!115 = !DILocation(line: 42, column: 31, scope: !114)
!116 = !DILocalVariable(name: "a", arg: 1, scope: !114, file: !3, line: 42, type: !30)
!117 = !DILocation(line: 41, column: 3, scope: !114)
!118 = !{!119, !119, i64 0}
!119 = !{!"descriptor member", !120, i64 0}
!120 = !{!"any access", !121, i64 0}
!121 = !{!"Flang function root _QMkernelsPphases"}
!122 = !DILocalVariable(name: "b", arg: 2, scope: !114, file: !3, line: 42, type: !30)
!123 = !DILocalVariable(name: "i", scope: !114, file: !3, line: 44, type: !40)
!124 = !DILocation(line: 44, column: 16, scope: !114)
!125 = !DILocalVariable(name: "t", scope: !114, file: !3, line: 43, type: !12)
!126 = !DILocation(line: 43, column: 16, scope: !114)
!127 = !DILocation(line: 45, column: 11, scope: !114)
!128 = !DILocation(line: 51, column: 11, scope: !114)
!129 = !DILocation(line: 56, column: 3, scope: !114)
!130 = distinct !DISubprogram(name: "_QMkernelsPphases..omp_par", linkageName: "_QMkernelsPphases..omp_par", scope: null, file: !3, type: !45, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!131 = !DILocation(line: 51, column: 11, scope: !130)
!132 = !DILocation(line: 41, column: 3, scope: !130)
!133 = !DILocation(line: 46, column: 11, scope: !130)
!134 = !DILocalVariable(name: "i", scope: !130, file: !3, line: 44, type: !40)
!135 = !DILocation(line: 0, scope: !130)
!136 = !DILocation(line: 48, column: 7, scope: !130)
!137 = !{!138, !138, i64 0}
!138 = !{!"dummy arg data/_QMkernelsFphasesEa", !139, i64 0}
!139 = !{!"dummy arg data", !140, i64 0}
!140 = !{!"any data access", !120, i64 0}
!141 = !DILocalVariable(name: "t", scope: !130, file: !3, line: 43, type: !12)
!142 = !DILocation(line: 49, column: 7, scope: !130)
!143 = !{!144, !144, i64 0}
!144 = !{!"dummy arg data/_QMkernelsFphasesEb", !139, i64 0}
!145 = !DILocation(line: 53, column: 7, scope: !130)
!146 = !DILocation(line: 32, column: 16, scope: !84, inlinedAt: !147)
!147 = distinct !DILocation(line: 75, column: 22, scope: !2)
!148 = !DILocation(line: 31, column: 28, scope: !84, inlinedAt: !147)
!149 = !DILocation(line: 32, column: 16, scope: !84, inlinedAt: !150)
!150 = distinct !DILocation(line: 75, column: 12, scope: !2)
!151 = !DILocation(line: 31, column: 28, scope: !84, inlinedAt: !150)
!152 = !DILocation(line: 42, column: 31, scope: !114, inlinedAt: !153)
!153 = distinct !DILocation(line: 71, column: 3, scope: !2)
!154 = !DILocation(line: 21, column: 31, scope: !57, inlinedAt: !155)
!155 = distinct !DILocation(line: 70, column: 3, scope: !2)
!156 = !DILocation(line: 11, column: 31, scope: !26, inlinedAt: !157)
!157 = distinct !DILocation(line: 69, column: 3, scope: !2)
!158 = !DILocation(line: 75, column: 22, scope: !2)
!159 = !DILocation(line: 75, column: 12, scope: !2)
!160 = !DILocation(line: 74, column: 3, scope: !2)
!161 = !DILocation(line: 72, column: 3, scope: !2)
!162 = !DILocation(line: 71, column: 3, scope: !2)
!163 = !DILocation(line: 70, column: 3, scope: !2)
!164 = !DILocation(line: 69, column: 3, scope: !2)
!165 = !DILocation(line: 68, column: 3, scope: !2)
!166 = !DILocation(line: 64, column: 3, scope: !2)
!167 = !{!168, !168, i64 0}
!168 = !{!"descriptor member", !169, i64 0}
!169 = !{!"any access", !170, i64 0}
!170 = !{!"Flang function root _QQmain"}
!171 = !DILocation(line: 65, column: 3, scope: !2)
!172 = !DILocation(line: 66, column: 5, scope: !2)
!173 = !{!174, !174, i64 0}
!174 = !{!"direct data/_QFEy", !175, i64 0}
!175 = !{!"direct data", !176, i64 0}
!176 = !{!"any data access", !169, i64 0}
!177 = distinct !{!177, !178, !179}
!178 = !{!"llvm.loop.isvectorized", i32 1}
!179 = !{!"llvm.loop.unroll.runtime.disable"}
!180 = !DILocalVariable(name: "i", scope: !2, file: !3, line: 63, type: !40)
!181 = !DILocation(line: 0, scope: !2)
!182 = !DILocation(line: 0, scope: !26, inlinedAt: !157)
!183 = !{!176, !176, i64 0}
!184 = !DILocation(line: 10, column: 3, scope: !26, inlinedAt: !157)
!185 = !DILocation(line: 13, column: 16, scope: !26, inlinedAt: !157)
!186 = !DILocation(line: 35, column: 11, scope: !84, inlinedAt: !147)
!187 = !DILocation(line: 18, column: 3, scope: !26, inlinedAt: !157)
!188 = !DILocation(line: 20, column: 3, scope: !57, inlinedAt: !155)
!189 = !DILocation(line: 23, column: 16, scope: !57, inlinedAt: !155)
!190 = !DILocation(line: 28, column: 3, scope: !57, inlinedAt: !155)
!191 = !DILocation(line: 41, column: 3, scope: !114, inlinedAt: !153)
!192 = !DILocation(line: 44, column: 16, scope: !114, inlinedAt: !153)
!193 = !DILocation(line: 43, column: 16, scope: !114, inlinedAt: !153)
!194 = !DILocation(line: 51, column: 11, scope: !114, inlinedAt: !153)
!195 = !DILocation(line: 56, column: 3, scope: !114, inlinedAt: !153)
!196 = !DILocation(line: 73, column: 3, scope: !2)
!197 = !{!198, !198, i64 0}
!198 = !{!"direct data/_QFEm", !175, i64 0}
!199 = !DILocation(line: 75, column: 3, scope: !2)
!200 = !DILocation(line: 30, column: 3, scope: !84, inlinedAt: !150)
!201 = !DILocation(line: 33, column: 16, scope: !84, inlinedAt: !150)
!202 = !DILocation(line: 0, scope: !84, inlinedAt: !150)
!203 = !DILocation(line: 34, column: 5, scope: !84, inlinedAt: !150)
!204 = !DILocation(line: 39, column: 3, scope: !84, inlinedAt: !150)
!205 = !DILocation(line: 30, column: 3, scope: !84, inlinedAt: !147)
!206 = !DILocation(line: 33, column: 16, scope: !84, inlinedAt: !147)
!207 = !DILocation(line: 0, scope: !84, inlinedAt: !147)
!208 = !DILocation(line: 34, column: 5, scope: !84, inlinedAt: !147)
!209 = !DILocation(line: 39, column: 3, scope: !84, inlinedAt: !147)
!210 = !DILocation(line: 75, column: 32, scope: !2)
!211 = !{!212, !212, i64 0}
!212 = !{!"direct data/_QFEp", !175, i64 0}
!213 = !DILocation(line: 76, column: 1, scope: !2)
!214 = !DISubprogram(name: "_FortranAioBeginExternalListOutput", linkageName: "_FortranAioBeginExternalListOutput", scope: !3, file: !3, line: 75, type: !215, scopeLine: 75, spFlags: DISPFlagOptimized)
!215 = !DISubroutineType(cc: DW_CC_normal, types: !216)
!216 = !{!40, !40, !217, !40}
!217 = !DIBasicType(name: "integer", size: 8, encoding: DW_ATE_signed)
!218 = !DISubprogram(name: "_FortranAioOutputReal64", linkageName: "_FortranAioOutputReal64", scope: !3, file: !3, line: 75, type: !219, scopeLine: 75, spFlags: DISPFlagOptimized)
!219 = !DISubroutineType(cc: DW_CC_normal, types: !220)
!220 = !{!221, !217, !12}
!221 = !DIBasicType(name: "integer", size: 1, encoding: DW_ATE_signed)
!222 = !DISubprogram(name: "_FortranAioEndIoStatement", linkageName: "_FortranAioEndIoStatement", scope: !3, file: !3, line: 75, type: !223, scopeLine: 75, spFlags: DISPFlagOptimized)
!223 = !DISubroutineType(cc: DW_CC_normal, types: !224)
!224 = !{!40, !217}
!225 = !DISubprogram(name: "_FortranAProgramStart", linkageName: "_FortranAProgramStart", scope: !3, file: !3, line: 76, type: !226, scopeLine: 76, spFlags: DISPFlagOptimized)
!226 = !DISubroutineType(cc: DW_CC_normal, types: !227)
!227 = !{!40, !40, !40, !40}
!228 = !DISubprogram(name: "_FortranAProgramEndStatement", linkageName: "_FortranAProgramEndStatement", scope: !3, file: !3, line: 76, type: !229, scopeLine: 76, spFlags: DISPFlagOptimized)
!229 = !DISubroutineType(cc: DW_CC_normal, types: !5)
!230 = distinct !DISubprogram(name: "main", linkageName: "main", scope: !3, file: !3, line: 76, type: !226, scopeLine: 76, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!231 = !DILocation(line: 76, column: 1, scope: !230)
!232 = !DISubprogram(name: "_FortranAMatmulReal8Real8", linkageName: "_FortranAMatmulReal8Real8", scope: !3, file: !3, line: 74, type: !233, scopeLine: 74, spFlags: DISPFlagOptimized)
!233 = !DISubroutineType(cc: DW_CC_normal, types: !234)
!234 = !{!40, !40, !40, !40, !217, !40}
!235 = !DISubprogram(name: "_FortranAAssign", linkageName: "_FortranAAssign", scope: !3, file: !3, line: 68, type: !236, scopeLine: 68, spFlags: DISPFlagOptimized)
!236 = !DISubroutineType(cc: DW_CC_normal, types: !237)
!237 = !{!40, !40, !40, !217, !40}
!238 = !{!239}
!239 = !{i64 2, i64 -1, i64 -1, i1 true}
