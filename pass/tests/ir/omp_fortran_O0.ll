; ModuleID = 'FIRModule'
source_filename = "FIRModule"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

$_QQclXb13bcc9fd26dd728b1c2553343637986 = comdat any

@_QFEm = internal global { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)], [3 x i64] [i64 1, i64 0, i64 0]] }, !dbg !0
@_QFEp = internal global { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)], [3 x i64] [i64 1, i64 0, i64 0]] }, !dbg !8
@_QFEx = internal global { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, !dbg !15
@_QFEy = internal global { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, !dbg !19
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

declare void @free(ptr)

declare ptr @malloc(i64)

define void @_QMkernelsPscale(ptr %0, ptr %1) #0 !dbg !25 {
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %3 = alloca i32, i64 1, align 4, !dbg !30
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !31
    #dbg_declare(ptr %0, !32, !DIExpression(), !33)
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 0, !dbg !31
  %6 = load i64, ptr %5, align 8, !dbg !31
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 1, !dbg !31
  %8 = load i64, ptr %7, align 8, !dbg !31
  %9 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 2, !dbg !31
  %10 = load i64, ptr %9, align 8, !dbg !31
  %11 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 0, !dbg !31
  %12 = load ptr, ptr %11, align 8, !dbg !31
  %13 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %8, 7, 0, 1, !dbg !31
  %14 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %13, i64 %10, 7, 0, 2, !dbg !31
  %15 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %14, ptr %12, 0, !dbg !31
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %15, ptr %4, align 8, !dbg !31
    #dbg_declare(ptr %1, !34, !DIExpression(), !33)
    #dbg_declare(ptr %3, !35, !DIExpression(), !30)
  br label %entry, !dbg !37

entry:                                            ; preds = %2
  %omp_global_thread_num = call i32 @__kmpc_global_thread_num(ptr @1), !dbg !37
  br label %omp_parallel

omp_parallel:                                     ; preds = %entry
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 0
  store ptr %4, ptr %gep_, align 8
  %gep_5 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 1
  store ptr %0, ptr %gep_5, align 8
  %gep_6 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 2
  store ptr %1, ptr %gep_6, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @1, i32 1, ptr @_QMkernelsPscale..omp_par, ptr %structArg), !dbg !30
  br label %omp.par.outlined.exit

omp.par.outlined.exit:                            ; preds = %omp_parallel
  br label %omp.par.exit.split

omp.par.exit.split:                               ; preds = %omp.par.outlined.exit
  ret void, !dbg !38
}

; Function Attrs: nounwind
define internal void @_QMkernelsPscale..omp_par(ptr noalias %tid.addr, ptr noalias %zero.addr, ptr %0) #1 !dbg !39 {
omp.par.entry:
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 0
  %loadgep_ = load ptr, ptr %gep_, align 8
  %gep_1 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 1
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 2
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %tid.addr.local = alloca i32, align 4
  %1 = load i32, ptr %tid.addr, align 4
  store i32 %1, ptr %tid.addr.local, align 4
  %tid = load i32, ptr %tid.addr.local, align 4
  br label %omp.reduction.init

omp.reduction.init:                               ; preds = %omp.par.entry
  br label %omp.par.region

omp.par.region:                                   ; preds = %omp.reduction.init
  br label %omp.par.region1

omp.par.region1:                                  ; preds = %omp.par.region
  %2 = alloca i32, i64 1, align 4, !dbg !41
    #dbg_declare(ptr %2, !42, !DIExpression(), !41)
  %3 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 0, !dbg !43
  %4 = load i64, ptr %3, align 8, !dbg !43
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 1, !dbg !43
  %6 = load i64, ptr %5, align 8, !dbg !43
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 2, !dbg !43
  %8 = load i64, ptr %7, align 8, !dbg !43
  %9 = trunc i64 %6 to i32, !dbg !43
  %10 = select i1 false, i32 %9, i32 1, !dbg !44
  %11 = select i1 false, i32 1, i32 %9, !dbg !44
  %12 = sub nsw i32 %11, %10, !dbg !44
  %13 = icmp slt i32 %11, %10, !dbg !44
  %14 = udiv i32 %12, 1, !dbg !44
  %15 = add i32 %14, 1, !dbg !44
  %omp_loop.tripcount = select i1 %13, i32 0, i32 %15, !dbg !44
  br label %omp_loop.preheader

omp_loop.preheader:                               ; preds = %omp.par.region1
  store i32 0, ptr %p.lowerbound, align 4
  %16 = sub i32 %omp_loop.tripcount, 1
  store i32 %16, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num3 = call i32 @__kmpc_global_thread_num(ptr @1)
  call void @__kmpc_for_static_init_4u(ptr @1, i32 %omp_global_thread_num3, i32 34, ptr %p.lastiter, ptr %p.lowerbound, ptr %p.upperbound, ptr %p.stride, i32 1, i32 0)
  %17 = load i32, ptr %p.lowerbound, align 4
  %18 = load i32, ptr %p.upperbound, align 4
  %19 = sub i32 %18, %17
  %20 = add i32 %19, 1
  br label %omp_loop.header

omp_loop.header:                                  ; preds = %omp_loop.inc, %omp_loop.preheader
  %omp_loop.iv = phi i32 [ 0, %omp_loop.preheader ], [ %omp_loop.next, %omp_loop.inc ]
  br label %omp_loop.cond

omp_loop.cond:                                    ; preds = %omp_loop.header
  %omp_loop.cmp = icmp ult i32 %omp_loop.iv, %20
  br i1 %omp_loop.cmp, label %omp_loop.body, label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.cond
  call void @__kmpc_for_static_fini(ptr @1, i32 %omp_global_thread_num3)
  %omp_global_thread_num4 = call i32 @__kmpc_global_thread_num(ptr @1), !dbg !44
  call void @__kmpc_barrier(ptr @2, i32 %omp_global_thread_num4), !dbg !44
  br label %omp_loop.after

omp_loop.after:                                   ; preds = %omp_loop.exit
  br label %omp.region.cont, !dbg !44

omp.region.cont:                                  ; preds = %omp_loop.after
  br label %omp.par.pre_finalize

omp.par.pre_finalize:                             ; preds = %omp.region.cont
  br label %omp.par.outlined.exit.exitStub

omp_loop.body:                                    ; preds = %omp_loop.cond
  %21 = add i32 %omp_loop.iv, %17, !dbg !44
  %22 = mul i32 %21, 1
  %23 = add i32 %22, 1
  br label %omp.wsloop.region

omp.wsloop.region:                                ; preds = %omp_loop.body
  store i32 %23, ptr %2, align 4, !dbg !44
  %24 = load i32, ptr %2, align 4, !dbg !45
  %25 = sext i32 %24 to i64, !dbg !45
  %26 = sub nsw i64 %25, 1, !dbg !45
  %27 = mul nsw i64 %26, 1, !dbg !45
  %28 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 7, i32 0, i32 2, !dbg !45
  %29 = load i64, ptr %28, align 8, !dbg !45
  %30 = mul nsw i64 %27, %29, !dbg !45
  %31 = add nsw i64 %30, 0, !dbg !45
  %32 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 0, !dbg !45
  %33 = load ptr, ptr %32, align 8, !dbg !45
  %34 = getelementptr i8, ptr %33, i64 %31, !dbg !45
  %35 = load double, ptr %34, align 8, !dbg !45
  %36 = load double, ptr %loadgep_4, align 8, !dbg !45
  %37 = fmul contract double %35, %36, !dbg !45
  store double %37, ptr %34, align 8, !dbg !45
  br label %omp.region.cont2, !dbg !44

omp.region.cont2:                                 ; preds = %omp.wsloop.region
  br label %omp_loop.inc

omp_loop.inc:                                     ; preds = %omp.region.cont2
  %omp_loop.next = add nuw i32 %omp_loop.iv, 1
  br label %omp_loop.header

omp.par.outlined.exit.exitStub:                   ; preds = %omp.par.pre_finalize
  ret void
}

define void @_QMkernelsPdyn(ptr %0, ptr %1) #0 !dbg !46 {
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %3 = alloca i32, i64 1, align 4, !dbg !49
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !50
    #dbg_declare(ptr %0, !51, !DIExpression(), !52)
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 0, !dbg !50
  %6 = load i64, ptr %5, align 8, !dbg !50
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 1, !dbg !50
  %8 = load i64, ptr %7, align 8, !dbg !50
  %9 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 2, !dbg !50
  %10 = load i64, ptr %9, align 8, !dbg !50
  %11 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 0, !dbg !50
  %12 = load ptr, ptr %11, align 8, !dbg !50
  %13 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %8, 7, 0, 1, !dbg !50
  %14 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %13, i64 %10, 7, 0, 2, !dbg !50
  %15 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %14, ptr %12, 0, !dbg !50
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %15, ptr %4, align 8, !dbg !50
    #dbg_declare(ptr %1, !53, !DIExpression(), !52)
    #dbg_declare(ptr %3, !54, !DIExpression(), !49)
  br label %entry, !dbg !55

entry:                                            ; preds = %2
  %omp_global_thread_num = call i32 @__kmpc_global_thread_num(ptr @4), !dbg !55
  br label %omp_parallel

omp_parallel:                                     ; preds = %entry
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 0
  store ptr %4, ptr %gep_, align 8
  %gep_5 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 1
  store ptr %0, ptr %gep_5, align 8
  %gep_6 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 2
  store ptr %1, ptr %gep_6, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @4, i32 1, ptr @_QMkernelsPdyn..omp_par, ptr %structArg), !dbg !49
  br label %omp.par.outlined.exit

omp.par.outlined.exit:                            ; preds = %omp_parallel
  br label %omp.par.exit.split

omp.par.exit.split:                               ; preds = %omp.par.outlined.exit
  ret void, !dbg !56
}

; Function Attrs: nounwind
define internal void @_QMkernelsPdyn..omp_par(ptr noalias %tid.addr, ptr noalias %zero.addr, ptr %0) #1 !dbg !57 {
omp.par.entry:
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 0
  %loadgep_ = load ptr, ptr %gep_, align 8
  %gep_1 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 1
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 2
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %tid.addr.local = alloca i32, align 4
  %1 = load i32, ptr %tid.addr, align 4
  store i32 %1, ptr %tid.addr.local, align 4
  %tid = load i32, ptr %tid.addr.local, align 4
  br label %omp.reduction.init

omp.reduction.init:                               ; preds = %omp.par.entry
  br label %omp.par.region

omp.par.region:                                   ; preds = %omp.reduction.init
  br label %omp.par.region1

omp.par.region1:                                  ; preds = %omp.par.region
  %2 = alloca i32, i64 1, align 4, !dbg !58
    #dbg_declare(ptr %2, !59, !DIExpression(), !58)
  %3 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 0, !dbg !60
  %4 = load i64, ptr %3, align 8, !dbg !60
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 1, !dbg !60
  %6 = load i64, ptr %5, align 8, !dbg !60
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 2, !dbg !60
  %8 = load i64, ptr %7, align 8, !dbg !60
  %9 = trunc i64 %6 to i32, !dbg !60
  %10 = select i1 false, i32 %9, i32 1, !dbg !61
  %11 = select i1 false, i32 1, i32 %9, !dbg !61
  %12 = sub nsw i32 %11, %10, !dbg !61
  %13 = icmp slt i32 %11, %10, !dbg !61
  %14 = udiv i32 %12, 1, !dbg !61
  %15 = add i32 %14, 1, !dbg !61
  %omp_loop.tripcount = select i1 %13, i32 0, i32 %15, !dbg !61
  br label %omp_loop.preheader

omp_loop.preheader:                               ; preds = %omp.par.region1
  store i32 1, ptr %p.lowerbound, align 4
  store i32 %omp_loop.tripcount, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num3 = call i32 @__kmpc_global_thread_num(ptr @4)
  call void @__kmpc_dispatch_init_4u(ptr @4, i32 %omp_global_thread_num3, i32 1073741859, i32 1, i32 %omp_loop.tripcount, i32 1, i32 4)
  br label %omp_loop.preheader.outer.cond

omp_loop.preheader.outer.cond:                    ; preds = %omp_loop.cond, %omp_loop.preheader
  %16 = call i32 @__kmpc_dispatch_next_4u(ptr @4, i32 %omp_global_thread_num3, ptr %p.lastiter, ptr %p.lowerbound, ptr %p.upperbound, ptr %p.stride)
  %17 = icmp ne i32 %16, 0
  %18 = load i32, ptr %p.lowerbound, align 4
  %lb = sub i32 %18, 1
  br i1 %17, label %omp_loop.header, label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.preheader.outer.cond
  %omp_global_thread_num4 = call i32 @__kmpc_global_thread_num(ptr @4), !dbg !61
  call void @__kmpc_barrier(ptr @5, i32 %omp_global_thread_num4), !dbg !61
  br label %omp_loop.after

omp_loop.after:                                   ; preds = %omp_loop.exit
  br label %omp.region.cont, !dbg !61

omp.region.cont:                                  ; preds = %omp_loop.after
  br label %omp.par.pre_finalize

omp.par.pre_finalize:                             ; preds = %omp.region.cont
  br label %omp.par.outlined.exit.exitStub

omp_loop.header:                                  ; preds = %omp_loop.preheader.outer.cond, %omp_loop.inc
  %omp_loop.iv = phi i32 [ %lb, %omp_loop.preheader.outer.cond ], [ %omp_loop.next, %omp_loop.inc ]
  br label %omp_loop.cond

omp_loop.cond:                                    ; preds = %omp_loop.header
  %ub = load i32, ptr %p.upperbound, align 4
  %omp_loop.cmp = icmp ult i32 %omp_loop.iv, %ub
  br i1 %omp_loop.cmp, label %omp_loop.body, label %omp_loop.preheader.outer.cond

omp_loop.body:                                    ; preds = %omp_loop.cond
  %19 = mul i32 %omp_loop.iv, 1
  %20 = add i32 %19, 1
  br label %omp.wsloop.region

omp.wsloop.region:                                ; preds = %omp_loop.body
  store i32 %20, ptr %2, align 4, !dbg !61
  %21 = load i32, ptr %2, align 4, !dbg !62
  %22 = sext i32 %21 to i64, !dbg !62
  %23 = sub nsw i64 %22, 1, !dbg !62
  %24 = mul nsw i64 %23, 1, !dbg !62
  %25 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 7, i32 0, i32 2, !dbg !62
  %26 = load i64, ptr %25, align 8, !dbg !62
  %27 = mul nsw i64 %24, %26, !dbg !62
  %28 = add nsw i64 %27, 0, !dbg !62
  %29 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 0, !dbg !62
  %30 = load ptr, ptr %29, align 8, !dbg !62
  %31 = getelementptr i8, ptr %30, i64 %28, !dbg !62
  %32 = load double, ptr %31, align 8, !dbg !62
  %33 = sub nsw i64 %22, 1, !dbg !62
  %34 = mul nsw i64 %33, 1, !dbg !62
  %35 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 7, i32 0, i32 2, !dbg !62
  %36 = load i64, ptr %35, align 8, !dbg !62
  %37 = mul nsw i64 %34, %36, !dbg !62
  %38 = add nsw i64 %37, 0, !dbg !62
  %39 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 0, !dbg !62
  %40 = load ptr, ptr %39, align 8, !dbg !62
  %41 = getelementptr i8, ptr %40, i64 %38, !dbg !62
  %42 = load double, ptr %41, align 8, !dbg !62
  %43 = fadd contract double %32, %42, !dbg !62
  store double %43, ptr %31, align 8, !dbg !62
  br label %omp.region.cont2, !dbg !61

omp.region.cont2:                                 ; preds = %omp.wsloop.region
  br label %omp_loop.inc

omp_loop.inc:                                     ; preds = %omp.region.cont2
  %omp_loop.next = add nuw i32 %omp_loop.iv, 1
  br label %omp_loop.header

omp.par.outlined.exit.exitStub:                   ; preds = %omp.par.pre_finalize
  ret void
}

define double @_QMkernelsPtotal(ptr %0) #0 !dbg !63 {
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %2 = alloca double, i64 1, align 8, !dbg !66
  %3 = alloca i32, i64 1, align 4, !dbg !67
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !68
    #dbg_declare(ptr %0, !69, !DIExpression(), !70)
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 0, !dbg !68
  %6 = load i64, ptr %5, align 8, !dbg !68
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 1, !dbg !68
  %8 = load i64, ptr %7, align 8, !dbg !68
  %9 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 2, !dbg !68
  %10 = load i64, ptr %9, align 8, !dbg !68
  %11 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 0, !dbg !68
  %12 = load ptr, ptr %11, align 8, !dbg !68
  %13 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %8, 7, 0, 1, !dbg !68
  %14 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %13, i64 %10, 7, 0, 2, !dbg !68
  %15 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %14, ptr %12, 0, !dbg !68
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %15, ptr %4, align 8, !dbg !68
    #dbg_declare(ptr %3, !71, !DIExpression(), !67)
    #dbg_declare(ptr %2, !72, !DIExpression(), !66)
  store double 0.000000e+00, ptr %2, align 8, !dbg !73
  br label %entry, !dbg !74

entry:                                            ; preds = %1
  %omp_global_thread_num = call i32 @__kmpc_global_thread_num(ptr @7), !dbg !74
  br label %omp_parallel

omp_parallel:                                     ; preds = %entry
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 0
  store ptr %4, ptr %gep_, align 8
  %gep_7 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 1
  store ptr %2, ptr %gep_7, align 8
  %gep_8 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 2
  store ptr %0, ptr %gep_8, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @7, i32 1, ptr @_QMkernelsPtotal..omp_par, ptr %structArg), !dbg !67
  br label %omp.par.outlined.exit

omp.par.outlined.exit:                            ; preds = %omp_parallel
  br label %omp.par.exit.split

omp.par.exit.split:                               ; preds = %omp.par.outlined.exit
  %16 = load double, ptr %2, align 8, !dbg !75
  ret double %16, !dbg !75
}

; Function Attrs: nounwind
define internal void @_QMkernelsPtotal..omp_par(ptr noalias %tid.addr, ptr noalias %zero.addr, ptr %0) #1 !dbg !76 {
omp.par.entry:
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 0
  %loadgep_ = load ptr, ptr %gep_, align 8
  %gep_1 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 1
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 2
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %tid.addr.local = alloca i32, align 4
  %1 = load i32, ptr %tid.addr, align 4
  store i32 %1, ptr %tid.addr.local, align 4
  %tid = load i32, ptr %tid.addr.local, align 4
  %2 = alloca double, align 8
  %red.array = alloca [1 x ptr], align 8
  br label %omp.reduction.init

omp.reduction.init:                               ; preds = %omp.par.entry
  br label %omp.par.region

omp.par.region:                                   ; preds = %omp.reduction.init
  br label %omp.par.region1

omp.par.region1:                                  ; preds = %omp.par.region
  %3 = alloca i32, i64 1, align 4, !dbg !77
    #dbg_declare(ptr %3, !78, !DIExpression(), !77)
  %4 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 0, !dbg !79
  %5 = load i64, ptr %4, align 8, !dbg !79
  %6 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 1, !dbg !79
  %7 = load i64, ptr %6, align 8, !dbg !79
  %8 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 2, !dbg !79
  %9 = load i64, ptr %8, align 8, !dbg !79
  %10 = trunc i64 %7 to i32, !dbg !79
  store double 0.000000e+00, ptr %2, align 8, !dbg !80
  %11 = select i1 false, i32 %10, i32 1, !dbg !80
  %12 = select i1 false, i32 1, i32 %10, !dbg !80
  %13 = sub nsw i32 %12, %11, !dbg !80
  %14 = icmp slt i32 %12, %11, !dbg !80
  %15 = udiv i32 %13, 1, !dbg !80
  %16 = add i32 %15, 1, !dbg !80
  %omp_loop.tripcount = select i1 %14, i32 0, i32 %16, !dbg !80
  br label %omp_loop.preheader

omp_loop.preheader:                               ; preds = %omp.par.region1
  store i32 0, ptr %p.lowerbound, align 4
  %17 = sub i32 %omp_loop.tripcount, 1
  store i32 %17, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num3 = call i32 @__kmpc_global_thread_num(ptr @7)
  call void @__kmpc_for_static_init_4u(ptr @7, i32 %omp_global_thread_num3, i32 34, ptr %p.lastiter, ptr %p.lowerbound, ptr %p.upperbound, ptr %p.stride, i32 1, i32 0)
  %18 = load i32, ptr %p.lowerbound, align 4
  %19 = load i32, ptr %p.upperbound, align 4
  %20 = sub i32 %19, %18
  %21 = add i32 %20, 1
  br label %omp_loop.header

omp_loop.header:                                  ; preds = %omp_loop.inc, %omp_loop.preheader
  %omp_loop.iv = phi i32 [ 0, %omp_loop.preheader ], [ %omp_loop.next, %omp_loop.inc ]
  br label %omp_loop.cond

omp_loop.cond:                                    ; preds = %omp_loop.header
  %omp_loop.cmp = icmp ult i32 %omp_loop.iv, %21
  br i1 %omp_loop.cmp, label %omp_loop.body, label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.cond
  call void @__kmpc_for_static_fini(ptr @7, i32 %omp_global_thread_num3)
  %omp_global_thread_num4 = call i32 @__kmpc_global_thread_num(ptr @7), !dbg !80
  call void @__kmpc_barrier(ptr @8, i32 %omp_global_thread_num4), !dbg !80
  br label %omp_loop.after

omp_loop.after:                                   ; preds = %omp_loop.exit
  %red.array.elem.0 = getelementptr inbounds [1 x ptr], ptr %red.array, i64 0, i64 0
  store ptr %2, ptr %red.array.elem.0, align 8
  %omp_global_thread_num5 = call i32 @__kmpc_global_thread_num(ptr @10)
  %reduce = call i32 @__kmpc_reduce(ptr @10, i32 %omp_global_thread_num5, i32 1, i64 8, ptr %red.array, ptr @.omp.reduction.func, ptr @.gomp_critical_user_.reduction.var)
  switch i32 %reduce, label %reduce.finalize [
    i32 1, label %reduce.switch.nonatomic
    i32 2, label %reduce.switch.atomic
  ]

reduce.switch.atomic:                             ; preds = %omp_loop.after
  unreachable

reduce.switch.nonatomic:                          ; preds = %omp_loop.after
  %red.value.0 = load double, ptr %loadgep_2, align 8
  %red.private.value.0 = load double, ptr %2, align 8
  %22 = fadd contract double %red.value.0, %red.private.value.0, !dbg !80
  store double %22, ptr %loadgep_2, align 8
  call void @__kmpc_end_reduce(ptr @10, i32 %omp_global_thread_num5, ptr @.gomp_critical_user_.reduction.var)
  br label %reduce.finalize

reduce.finalize:                                  ; preds = %reduce.switch.nonatomic, %omp_loop.after
  %omp_global_thread_num6 = call i32 @__kmpc_global_thread_num(ptr @10)
  call void @__kmpc_barrier(ptr @11, i32 %omp_global_thread_num6)
  br label %omp.region.cont, !dbg !80

omp.region.cont:                                  ; preds = %reduce.finalize
  br label %omp.par.pre_finalize

omp.par.pre_finalize:                             ; preds = %omp.region.cont
  br label %omp.par.outlined.exit.exitStub

omp_loop.body:                                    ; preds = %omp_loop.cond
  %23 = add i32 %omp_loop.iv, %18, !dbg !80
  %24 = mul i32 %23, 1
  %25 = add i32 %24, 1
  br label %omp.wsloop.region

omp.wsloop.region:                                ; preds = %omp_loop.body
    #dbg_declare(ptr %2, !81, !DIExpression(), !80)
  store i32 %25, ptr %3, align 4, !dbg !80
  %26 = load double, ptr %2, align 8, !dbg !82
  %27 = load i32, ptr %3, align 4, !dbg !82
  %28 = sext i32 %27 to i64, !dbg !82
  %29 = sub nsw i64 %28, 1, !dbg !82
  %30 = mul nsw i64 %29, 1, !dbg !82
  %31 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 7, i32 0, i32 2, !dbg !82
  %32 = load i64, ptr %31, align 8, !dbg !82
  %33 = mul nsw i64 %30, %32, !dbg !82
  %34 = add nsw i64 %33, 0, !dbg !82
  %35 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 0, !dbg !82
  %36 = load ptr, ptr %35, align 8, !dbg !82
  %37 = getelementptr i8, ptr %36, i64 %34, !dbg !82
  %38 = load double, ptr %37, align 8, !dbg !82
  %39 = fadd contract double %26, %38, !dbg !82
  store double %39, ptr %2, align 8, !dbg !82
  br label %omp.region.cont2, !dbg !80

omp.region.cont2:                                 ; preds = %omp.wsloop.region
  br label %omp_loop.inc

omp_loop.inc:                                     ; preds = %omp.region.cont2
  %omp_loop.next = add nuw i32 %omp_loop.iv, 1
  br label %omp_loop.header

omp.par.outlined.exit.exitStub:                   ; preds = %omp.par.pre_finalize
  ret void
}

define void @_QMkernelsPphases(ptr %0, ptr %1) #0 !dbg !83 {
  %structArg = alloca { ptr, ptr, ptr }, align 8
  %3 = alloca double, i64 1, align 8, !dbg !84
  %4 = alloca i32, i64 1, align 4, !dbg !85
  %5 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !86
    #dbg_declare(ptr %0, !87, !DIExpression(), !88)
  %6 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 0, !dbg !86
  %7 = load i64, ptr %6, align 8, !dbg !86
  %8 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 1, !dbg !86
  %9 = load i64, ptr %8, align 8, !dbg !86
  %10 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 7, i32 0, i32 2, !dbg !86
  %11 = load i64, ptr %10, align 8, !dbg !86
  %12 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %0, i32 0, i32 0, !dbg !86
  %13 = load ptr, ptr %12, align 8, !dbg !86
  %14 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %9, 7, 0, 1, !dbg !86
  %15 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %14, i64 %11, 7, 0, 2, !dbg !86
  %16 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %15, ptr %13, 0, !dbg !86
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %16, ptr %5, align 8, !dbg !86
    #dbg_declare(ptr %1, !89, !DIExpression(), !88)
    #dbg_declare(ptr %4, !90, !DIExpression(), !85)
    #dbg_declare(ptr %3, !91, !DIExpression(), !84)
  br label %entry, !dbg !92

entry:                                            ; preds = %2
  %omp_global_thread_num = call i32 @__kmpc_global_thread_num(ptr @13), !dbg !92
  br label %omp_parallel

omp_parallel:                                     ; preds = %entry
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 0
  store ptr %5, ptr %gep_, align 8
  %gep_25 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 1
  store ptr %1, ptr %gep_25, align 8
  %gep_26 = getelementptr { ptr, ptr, ptr }, ptr %structArg, i32 0, i32 2
  store ptr %0, ptr %gep_26, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @13, i32 1, ptr @_QMkernelsPphases..omp_par, ptr %structArg), !dbg !93
  br label %omp.par.outlined.exit

omp.par.outlined.exit:                            ; preds = %omp_parallel
  br label %omp.par.exit.split

omp.par.exit.split:                               ; preds = %omp.par.outlined.exit
  ret void, !dbg !94
}

; Function Attrs: nounwind
define internal void @_QMkernelsPphases..omp_par(ptr noalias %tid.addr, ptr noalias %zero.addr, ptr %0) #1 !dbg !95 {
omp.par.entry:
  %gep_ = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 0
  %loadgep_ = load ptr, ptr %gep_, align 8
  %gep_1 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 1
  %loadgep_2 = load ptr, ptr %gep_1, align 8
  %gep_3 = getelementptr { ptr, ptr, ptr }, ptr %0, i32 0, i32 2
  %loadgep_4 = load ptr, ptr %gep_3, align 8
  %p.lastiter = alloca i32, align 4
  %p.lowerbound = alloca i32, align 4
  %p.upperbound = alloca i32, align 4
  %p.stride = alloca i32, align 4
  %tid.addr.local = alloca i32, align 4
  %1 = load i32, ptr %tid.addr, align 4
  store i32 %1, ptr %tid.addr.local, align 4
  %tid = load i32, ptr %tid.addr.local, align 4
  %p.lastiter18 = alloca i32, align 4, !dbg !96
  %p.lowerbound19 = alloca i32, align 4, !dbg !96
  %p.upperbound20 = alloca i32, align 4, !dbg !96
  %p.stride21 = alloca i32, align 4, !dbg !96
  br label %omp.reduction.init

omp.reduction.init:                               ; preds = %omp.par.entry
  br label %omp.par.region

omp.par.region:                                   ; preds = %omp.reduction.init
  br label %omp.par.region1

omp.par.region1:                                  ; preds = %omp.par.region
  %2 = alloca i32, i64 1, align 4, !dbg !97
  %3 = alloca i32, i64 1, align 4, !dbg !97
  %4 = alloca double, i64 1, align 8, !dbg !98
    #dbg_declare(ptr %4, !99, !DIExpression(), !98)
    #dbg_declare(ptr %3, !100, !DIExpression(), !97)
  %5 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 0, !dbg !101
  %6 = load i64, ptr %5, align 8, !dbg !101
  %7 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 1, !dbg !101
  %8 = load i64, ptr %7, align 8, !dbg !101
  %9 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_, i32 0, i32 7, i64 0, i32 2, !dbg !101
  %10 = load i64, ptr %9, align 8, !dbg !101
  %11 = trunc i64 %8 to i32, !dbg !101
  %12 = select i1 false, i32 %11, i32 1, !dbg !102
  %13 = select i1 false, i32 1, i32 %11, !dbg !102
  %14 = sub nsw i32 %13, %12, !dbg !102
  %15 = icmp slt i32 %13, %12, !dbg !102
  %16 = udiv i32 %14, 1, !dbg !102
  %17 = add i32 %16, 1, !dbg !102
  %omp_loop.tripcount = select i1 %15, i32 0, i32 %17, !dbg !102
  br label %omp_loop.preheader

omp_loop.preheader:                               ; preds = %omp.par.region1
  store i32 1, ptr %p.lowerbound, align 4
  store i32 %omp_loop.tripcount, ptr %p.upperbound, align 4
  store i32 1, ptr %p.stride, align 4
  %omp_global_thread_num3 = call i32 @__kmpc_global_thread_num(ptr @15)
  call void @__kmpc_dispatch_init_4u(ptr @15, i32 %omp_global_thread_num3, i32 1073741860, i32 1, i32 %omp_loop.tripcount, i32 1, i32 1)
  br label %omp_loop.preheader.outer.cond

omp_loop.preheader.outer.cond:                    ; preds = %omp_loop.cond, %omp_loop.preheader
  %18 = call i32 @__kmpc_dispatch_next_4u(ptr @15, i32 %omp_global_thread_num3, ptr %p.lastiter, ptr %p.lowerbound, ptr %p.upperbound, ptr %p.stride)
  %19 = icmp ne i32 %18, 0
  %20 = load i32, ptr %p.lowerbound, align 4
  %lb = sub i32 %20, 1
  br i1 %19, label %omp_loop.header, label %omp_loop.exit

omp_loop.exit:                                    ; preds = %omp_loop.preheader.outer.cond
  %omp_global_thread_num4 = call i32 @__kmpc_global_thread_num(ptr @15), !dbg !102
  call void @__kmpc_barrier(ptr @16, i32 %omp_global_thread_num4), !dbg !102
  br label %omp_loop.after

omp_loop.after:                                   ; preds = %omp_loop.exit
    #dbg_declare(ptr %2, !100, !DIExpression(), !97)
  %21 = select i1 false, i32 %11, i32 1, !dbg !96
  %22 = select i1 false, i32 1, i32 %11, !dbg !96
  %23 = sub nsw i32 %22, %21, !dbg !96
  %24 = icmp slt i32 %22, %21, !dbg !96
  %25 = udiv i32 %23, 1, !dbg !96
  %26 = add i32 %25, 1, !dbg !96
  %omp_loop.tripcount5 = select i1 %24, i32 0, i32 %26, !dbg !96
  br label %omp_loop.preheader6

omp_loop.preheader6:                              ; preds = %omp_loop.after
  store i32 0, ptr %p.lowerbound19, align 4, !dbg !96
  %27 = sub i32 %omp_loop.tripcount5, 1, !dbg !96
  store i32 %27, ptr %p.upperbound20, align 4, !dbg !96
  store i32 1, ptr %p.stride21, align 4, !dbg !96
  %omp_global_thread_num22 = call i32 @__kmpc_global_thread_num(ptr @18), !dbg !96
  call void @__kmpc_for_static_init_4u(ptr @18, i32 %omp_global_thread_num22, i32 33, ptr %p.lastiter18, ptr %p.lowerbound19, ptr %p.upperbound20, ptr %p.stride21, i32 1, i32 8), !dbg !96
  %omp_firstchunk.lb = load i32, ptr %p.lowerbound19, align 4, !dbg !96
  %omp_firstchunk.ub = load i32, ptr %p.upperbound20, align 4, !dbg !96
  %28 = add i32 %omp_firstchunk.ub, 1, !dbg !96
  %omp_chunk.range = sub i32 %28, %omp_firstchunk.lb, !dbg !96
  %omp_dispatch.stride = load i32, ptr %p.stride21, align 4, !dbg !96
  %29 = sub nuw i32 %omp_loop.tripcount5, %omp_firstchunk.lb, !dbg !96
  %30 = icmp ule i32 %omp_loop.tripcount5, %omp_firstchunk.lb, !dbg !96
  %31 = sub i32 %29, 1, !dbg !96
  %32 = udiv i32 %31, %omp_dispatch.stride, !dbg !96
  %33 = add i32 %32, 1, !dbg !96
  %34 = icmp ule i32 %29, %omp_dispatch.stride, !dbg !96
  %35 = select i1 %34, i32 1, i32 %33, !dbg !96
  %omp_dispatch.tripcount = select i1 %30, i32 0, i32 %35, !dbg !96
  br label %omp_dispatch.preheader

omp_dispatch.preheader:                           ; preds = %omp_loop.preheader6
  br label %omp_dispatch.header

omp_dispatch.header:                              ; preds = %omp_dispatch.inc, %omp_dispatch.preheader
  %omp_dispatch.iv = phi i32 [ 0, %omp_dispatch.preheader ], [ %omp_dispatch.next, %omp_dispatch.inc ]
  br label %omp_dispatch.cond

omp_dispatch.cond:                                ; preds = %omp_dispatch.header
  %omp_dispatch.cmp = icmp ult i32 %omp_dispatch.iv, %omp_dispatch.tripcount
  br i1 %omp_dispatch.cmp, label %omp_dispatch.body, label %omp_dispatch.exit

omp_dispatch.exit:                                ; preds = %omp_dispatch.cond
  call void @__kmpc_for_static_fini(ptr @18, i32 %omp_global_thread_num22)
  %omp_global_thread_num24 = call i32 @__kmpc_global_thread_num(ptr @18), !dbg !96
  call void @__kmpc_barrier(ptr @19, i32 %omp_global_thread_num24), !dbg !96
  br label %omp_dispatch.after

omp_dispatch.after:                               ; preds = %omp_dispatch.exit
  br label %omp_loop.after12

omp_loop.after12:                                 ; preds = %omp_dispatch.after
  br label %omp.region.cont, !dbg !103

omp.region.cont:                                  ; preds = %omp_loop.after12
  br label %omp.par.pre_finalize

omp.par.pre_finalize:                             ; preds = %omp.region.cont
  br label %omp.par.outlined.exit.exitStub

omp_dispatch.body:                                ; preds = %omp_dispatch.cond
  %36 = mul i32 %omp_dispatch.iv, %omp_dispatch.stride
  %37 = add i32 %36, %omp_firstchunk.lb
  br label %omp_loop.preheader623

omp_loop.preheader623:                            ; preds = %omp_dispatch.body
  %38 = add i32 %37, %omp_chunk.range
  %omp_chunk.is_last = icmp uge i32 %38, %omp_loop.tripcount5
  %39 = sub i32 %omp_loop.tripcount5, %37
  %omp_chunk.tripcount = select i1 %omp_chunk.is_last, i32 %39, i32 %omp_chunk.range
  br label %omp_loop.header7

omp_loop.header7:                                 ; preds = %omp_loop.inc10, %omp_loop.preheader623
  %omp_loop.iv13 = phi i32 [ 0, %omp_loop.preheader623 ], [ %omp_loop.next15, %omp_loop.inc10 ]
  br label %omp_loop.cond8

omp_loop.cond8:                                   ; preds = %omp_loop.header7
  %omp_loop.cmp14 = icmp ult i32 %omp_loop.iv13, %omp_chunk.tripcount
  br i1 %omp_loop.cmp14, label %omp_loop.body9, label %omp_loop.exit11

omp_loop.exit11:                                  ; preds = %omp_loop.cond8
  br label %omp_dispatch.inc

omp_dispatch.inc:                                 ; preds = %omp_loop.exit11
  %omp_dispatch.next = add nuw i32 %omp_dispatch.iv, 1
  br label %omp_dispatch.header

omp_loop.body9:                                   ; preds = %omp_loop.cond8
  %40 = add i32 %omp_loop.iv13, %37
  %41 = mul i32 %40, 1
  %42 = add i32 %41, 1
  br label %omp.wsloop.region17

omp.wsloop.region17:                              ; preds = %omp_loop.body9
  store i32 %42, ptr %2, align 4, !dbg !96
  %43 = load i32, ptr %2, align 4, !dbg !104
  %44 = sext i32 %43 to i64, !dbg !104
  %45 = sub nsw i64 %44, 1, !dbg !104
  %46 = mul nsw i64 %45, 1, !dbg !104
  %47 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 7, i32 0, i32 2, !dbg !104
  %48 = load i64, ptr %47, align 8, !dbg !104
  %49 = mul nsw i64 %46, %48, !dbg !104
  %50 = add nsw i64 %49, 0, !dbg !104
  %51 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 0, !dbg !104
  %52 = load ptr, ptr %51, align 8, !dbg !104
  %53 = getelementptr i8, ptr %52, i64 %50, !dbg !104
  %54 = load double, ptr %53, align 8, !dbg !104
  %55 = sub nsw i64 %44, 1, !dbg !104
  %56 = mul nsw i64 %55, 1, !dbg !104
  %57 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 7, i32 0, i32 2, !dbg !104
  %58 = load i64, ptr %57, align 8, !dbg !104
  %59 = mul nsw i64 %56, %58, !dbg !104
  %60 = add nsw i64 %59, 0, !dbg !104
  %61 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 0, !dbg !104
  %62 = load ptr, ptr %61, align 8, !dbg !104
  %63 = getelementptr i8, ptr %62, i64 %60, !dbg !104
  %64 = load double, ptr %63, align 8, !dbg !104
  %65 = fsub contract double %54, %64, !dbg !104
  store double %65, ptr %63, align 8, !dbg !104
  br label %omp.region.cont16, !dbg !96

omp.region.cont16:                                ; preds = %omp.wsloop.region17
  br label %omp_loop.inc10

omp_loop.inc10:                                   ; preds = %omp.region.cont16
  %omp_loop.next15 = add nuw i32 %omp_loop.iv13, 1
  br label %omp_loop.header7

omp_loop.header:                                  ; preds = %omp_loop.preheader.outer.cond, %omp_loop.inc
  %omp_loop.iv = phi i32 [ %lb, %omp_loop.preheader.outer.cond ], [ %omp_loop.next, %omp_loop.inc ]
  br label %omp_loop.cond

omp_loop.cond:                                    ; preds = %omp_loop.header
  %ub = load i32, ptr %p.upperbound, align 4
  %omp_loop.cmp = icmp ult i32 %omp_loop.iv, %ub
  br i1 %omp_loop.cmp, label %omp_loop.body, label %omp_loop.preheader.outer.cond

omp_loop.body:                                    ; preds = %omp_loop.cond
  %66 = mul i32 %omp_loop.iv, 1
  %67 = add i32 %66, 1
  br label %omp.wsloop.region

omp.wsloop.region:                                ; preds = %omp_loop.body
  store i32 %67, ptr %3, align 4, !dbg !102
  %68 = load i32, ptr %3, align 4, !dbg !105
  %69 = sext i32 %68 to i64, !dbg !105
  %70 = sub nsw i64 %69, 1, !dbg !105
  %71 = mul nsw i64 %70, 1, !dbg !105
  %72 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 7, i32 0, i32 2, !dbg !105
  %73 = load i64, ptr %72, align 8, !dbg !105
  %74 = mul nsw i64 %71, %73, !dbg !105
  %75 = add nsw i64 %74, 0, !dbg !105
  %76 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_4, i32 0, i32 0, !dbg !105
  %77 = load ptr, ptr %76, align 8, !dbg !105
  %78 = getelementptr i8, ptr %77, i64 %75, !dbg !105
  %79 = load double, ptr %78, align 8, !dbg !105
  %80 = fmul contract double %79, 2.000000e+00, !dbg !105
  store double %80, ptr %4, align 8, !dbg !105
  %81 = load double, ptr %4, align 8, !dbg !106
  %82 = fadd contract double %81, 1.000000e+00, !dbg !106
  %83 = load i32, ptr %3, align 4, !dbg !106
  %84 = sext i32 %83 to i64, !dbg !106
  %85 = sub nsw i64 %84, 1, !dbg !106
  %86 = mul nsw i64 %85, 1, !dbg !106
  %87 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 7, i32 0, i32 2, !dbg !106
  %88 = load i64, ptr %87, align 8, !dbg !106
  %89 = mul nsw i64 %86, %88, !dbg !106
  %90 = add nsw i64 %89, 0, !dbg !106
  %91 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %loadgep_2, i32 0, i32 0, !dbg !106
  %92 = load ptr, ptr %91, align 8, !dbg !106
  %93 = getelementptr i8, ptr %92, i64 %90, !dbg !106
  store double %82, ptr %93, align 8, !dbg !106
  br label %omp.region.cont2, !dbg !102

omp.region.cont2:                                 ; preds = %omp.wsloop.region
  br label %omp_loop.inc

omp_loop.inc:                                     ; preds = %omp.region.cont2
  %omp_loop.next = add nuw i32 %omp_loop.iv, 1
  br label %omp_loop.header

omp.par.outlined.exit.exitStub:                   ; preds = %omp.par.pre_finalize
  ret void
}

define void @_QQmain() #0 !dbg !2 {
  %1 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !107
  %2 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !108
  %3 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !108
  %4 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !109
  %5 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !109
  %6 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !110
  %7 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !110
  %8 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !110
  %9 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !110
  %10 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !110
  %11 = alloca { ptr, i64, i32, i8, i8, i8, i8 }, align 8, !dbg !111
  %12 = alloca double, i64 1, align 8, !dbg !111
  %13 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !112
  %14 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !112
  %15 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !113
  %16 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !113
  %17 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !113
  %18 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !113
  %19 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !114
  %20 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !114
  %21 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !114
  %22 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !114
  %23 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !115
  %24 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !115
  %25 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !116
  %26 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !116
  %27 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !117
  %28 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, align 8, !dbg !118
  %29 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !118
  %30 = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8, !dbg !118
  %31 = alloca i32, i64 1, align 4, !dbg !119
  %32 = alloca { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, i64 1, align 8, !dbg !110
  %33 = alloca double, i64 1, align 8, !dbg !115
    #dbg_declare(ptr %31, !120, !DIExpression(), !119)
  %34 = call ptr @malloc(i64 mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 100)), !dbg !118
  %35 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 100, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, ptr %34, 0, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %35, ptr %30, align 8, !dbg !118
  %36 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %30, align 8, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %36, ptr @_QFEx, align 8, !dbg !118
  %37 = call ptr @malloc(i64 mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 100)), !dbg !118
  %38 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 100, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)]] }, ptr %37, 0, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %38, ptr %29, align 8, !dbg !118
  %39 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %29, align 8, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %39, ptr @_QFEy, align 8, !dbg !118
  %40 = call ptr @malloc(i64 mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 16)), !dbg !118
  %41 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 4, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)], [3 x i64] [i64 1, i64 4, i64 mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 4)]] }, ptr %40, 0, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %41, ptr %28, align 8, !dbg !118
  %42 = load { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %28, align 8, !dbg !118
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %42, ptr @_QFEm, align 8, !dbg !118
  br label %43, !dbg !121

43:                                               ; preds = %47, %0
  %44 = phi i32 [ %67, %47 ], [ 1, %0 ]
  %45 = phi i64 [ %68, %47 ], [ 100, %0 ]
  %46 = icmp sgt i64 %45, 0, !dbg !121
  br i1 %46, label %47, label %69, !dbg !121

47:                                               ; preds = %43
  store i32 %44, ptr %31, align 4, !dbg !121
  %48 = load i32, ptr %31, align 4, !dbg !117
  %49 = sitofp i32 %48 to double, !dbg !117
  %50 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEy, align 8, !dbg !117
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %50, ptr %27, align 8, !dbg !117
  %51 = sext i32 %48 to i64, !dbg !117
  %52 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %27, i32 0, i32 0, !dbg !117
  %53 = load ptr, ptr %52, align 8, !dbg !117
  %54 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %27, i32 0, i32 7, i64 0, i32 0, !dbg !117
  %55 = load i64, ptr %54, align 8, !dbg !117
  %56 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %27, i32 0, i32 7, i64 0, i32 1, !dbg !117
  %57 = load i64, ptr %56, align 8, !dbg !117
  %58 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %27, i32 0, i32 7, i64 0, i32 2, !dbg !117
  %59 = load i64, ptr %58, align 8, !dbg !117
  %60 = sub nsw i64 %51, %55, !dbg !117
  %61 = mul nsw i64 %60, 1, !dbg !117
  %62 = mul nsw i64 %61, 1, !dbg !117
  %63 = add nsw i64 %62, 0, !dbg !117
  %64 = mul nsw i64 1, %57, !dbg !117
  %65 = getelementptr double, ptr %53, i64 %63, !dbg !117
  store double %49, ptr %65, align 8, !dbg !117
  %66 = load i32, ptr %31, align 4, !dbg !117
  %67 = add i32 %66, 1, !dbg !117
  %68 = sub i64 %45, 1, !dbg !121
  br label %43, !dbg !121

69:                                               ; preds = %43
  store i32 %44, ptr %31, align 4, !dbg !117
  %70 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEy, align 8, !dbg !116
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %70, ptr %26, align 8, !dbg !116
  %71 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %26, i32 0, i32 0, !dbg !116
  %72 = load ptr, ptr %71, align 8, !dbg !116
  %73 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %26, i32 0, i32 7, i64 0, i32 0, !dbg !116
  %74 = load i64, ptr %73, align 8, !dbg !116
  %75 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %26, i32 0, i32 7, i64 0, i32 1, !dbg !116
  %76 = load i64, ptr %75, align 8, !dbg !116
  %77 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %26, i32 0, i32 7, i64 0, i32 2, !dbg !116
  %78 = load i64, ptr %77, align 8, !dbg !116
  %79 = icmp eq i64 %76, 0, !dbg !116
  %80 = select i1 %79, i64 1, i64 %74, !dbg !116
  %81 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] undef }, i64 %80, 7, 0, 0, !dbg !116
  %82 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %81, i64 %76, 7, 0, 1, !dbg !116
  %83 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %82, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), 7, 0, 2, !dbg !116
  %84 = mul i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), %76, !dbg !116
  %85 = mul i64 1, %76, !dbg !116
  %86 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %83, ptr %72, 0, !dbg !116
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %86, ptr %25, align 8, !dbg !116
  %87 = call {} @_FortranAAssign(ptr @_QFEx, ptr %25, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 68), !dbg !116
  %88 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEx, align 8, !dbg !115
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %88, ptr %24, align 8, !dbg !115
  %89 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %24, i32 0, i32 7, i32 0, i32 0, !dbg !115
  %90 = load i64, ptr %89, align 8, !dbg !115
  %91 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %24, i32 0, i32 7, i32 0, i32 1, !dbg !115
  %92 = load i64, ptr %91, align 8, !dbg !115
  %93 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %24, i32 0, i32 7, i32 0, i32 2, !dbg !115
  %94 = load i64, ptr %93, align 8, !dbg !115
  %95 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %24, i32 0, i32 0, !dbg !115
  %96 = load ptr, ptr %95, align 8, !dbg !115
  %97 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %92, 7, 0, 1, !dbg !115
  %98 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %97, i64 %94, 7, 0, 2, !dbg !115
  %99 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %98, ptr %96, 0, !dbg !115
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %99, ptr %23, align 8, !dbg !115
  store double 2.000000e+00, ptr %33, align 8, !dbg !115
  call void @_QMkernelsPscale(ptr %23, ptr %33), !dbg !115
  %100 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEx, align 8, !dbg !114
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %100, ptr %22, align 8, !dbg !114
  %101 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %22, i32 0, i32 7, i32 0, i32 0, !dbg !114
  %102 = load i64, ptr %101, align 8, !dbg !114
  %103 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %22, i32 0, i32 7, i32 0, i32 1, !dbg !114
  %104 = load i64, ptr %103, align 8, !dbg !114
  %105 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %22, i32 0, i32 7, i32 0, i32 2, !dbg !114
  %106 = load i64, ptr %105, align 8, !dbg !114
  %107 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %22, i32 0, i32 0, !dbg !114
  %108 = load ptr, ptr %107, align 8, !dbg !114
  %109 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %104, 7, 0, 1, !dbg !114
  %110 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %109, i64 %106, 7, 0, 2, !dbg !114
  %111 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %110, ptr %108, 0, !dbg !114
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %111, ptr %21, align 8, !dbg !114
  %112 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEy, align 8, !dbg !114
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %112, ptr %20, align 8, !dbg !114
  %113 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %20, i32 0, i32 7, i32 0, i32 0, !dbg !114
  %114 = load i64, ptr %113, align 8, !dbg !114
  %115 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %20, i32 0, i32 7, i32 0, i32 1, !dbg !114
  %116 = load i64, ptr %115, align 8, !dbg !114
  %117 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %20, i32 0, i32 7, i32 0, i32 2, !dbg !114
  %118 = load i64, ptr %117, align 8, !dbg !114
  %119 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %20, i32 0, i32 0, !dbg !114
  %120 = load ptr, ptr %119, align 8, !dbg !114
  %121 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %116, 7, 0, 1, !dbg !114
  %122 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %121, i64 %118, 7, 0, 2, !dbg !114
  %123 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %122, ptr %120, 0, !dbg !114
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %123, ptr %19, align 8, !dbg !114
  call void @_QMkernelsPdyn(ptr %21, ptr %19), !dbg !114
  %124 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEx, align 8, !dbg !113
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %124, ptr %18, align 8, !dbg !113
  %125 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %18, i32 0, i32 7, i32 0, i32 0, !dbg !113
  %126 = load i64, ptr %125, align 8, !dbg !113
  %127 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %18, i32 0, i32 7, i32 0, i32 1, !dbg !113
  %128 = load i64, ptr %127, align 8, !dbg !113
  %129 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %18, i32 0, i32 7, i32 0, i32 2, !dbg !113
  %130 = load i64, ptr %129, align 8, !dbg !113
  %131 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %18, i32 0, i32 0, !dbg !113
  %132 = load ptr, ptr %131, align 8, !dbg !113
  %133 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %128, 7, 0, 1, !dbg !113
  %134 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %133, i64 %130, 7, 0, 2, !dbg !113
  %135 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %134, ptr %132, 0, !dbg !113
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %135, ptr %17, align 8, !dbg !113
  %136 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEy, align 8, !dbg !113
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %136, ptr %16, align 8, !dbg !113
  %137 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %16, i32 0, i32 7, i32 0, i32 0, !dbg !113
  %138 = load i64, ptr %137, align 8, !dbg !113
  %139 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %16, i32 0, i32 7, i32 0, i32 1, !dbg !113
  %140 = load i64, ptr %139, align 8, !dbg !113
  %141 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %16, i32 0, i32 7, i32 0, i32 2, !dbg !113
  %142 = load i64, ptr %141, align 8, !dbg !113
  %143 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %16, i32 0, i32 0, !dbg !113
  %144 = load ptr, ptr %143, align 8, !dbg !113
  %145 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %140, 7, 0, 1, !dbg !113
  %146 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %145, i64 %142, 7, 0, 2, !dbg !113
  %147 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %146, ptr %144, 0, !dbg !113
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %147, ptr %15, align 8, !dbg !113
  call void @_QMkernelsPphases(ptr %17, ptr %15), !dbg !113
  %148 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEx, align 8, !dbg !112
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %148, ptr %14, align 8, !dbg !112
  %149 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %14, i32 0, i32 0, !dbg !112
  %150 = load ptr, ptr %149, align 8, !dbg !112
  %151 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %14, i32 0, i32 7, i64 0, i32 0, !dbg !112
  %152 = load i64, ptr %151, align 8, !dbg !112
  %153 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %14, i32 0, i32 7, i64 0, i32 1, !dbg !112
  %154 = load i64, ptr %153, align 8, !dbg !112
  %155 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %14, i32 0, i32 7, i64 0, i32 2, !dbg !112
  %156 = load i64, ptr %155, align 8, !dbg !112
  %157 = sub i64 100, %152, !dbg !112
  %158 = mul i64 %157, 1, !dbg !112
  %159 = add i64 %158, 0, !dbg !112
  %160 = mul i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), %154, !dbg !112
  %161 = mul i64 1, %154, !dbg !112
  %162 = getelementptr double, ptr %150, i64 %159, !dbg !112
  %163 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 100, i64 mul (i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i64 -1)]] }, ptr %162, 0, !dbg !112
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %163, ptr %13, align 8, !dbg !112
  %164 = call {} @_FortranAAssign(ptr @_QFEy, ptr %13, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 72), !dbg !112
  store double 1.000000e+00, ptr %12, align 8, !dbg !111
  %165 = insertvalue { ptr, i64, i32, i8, i8, i8, i8 } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 0, i8 28, i8 0, i8 0 }, ptr %12, 0, !dbg !111
  store { ptr, i64, i32, i8, i8, i8, i8 } %165, ptr %11, align 8, !dbg !111
  %166 = call {} @_FortranAAssign(ptr @_QFEm, ptr %11, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 73), !dbg !111
  %167 = load { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr @_QFEm, align 8, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %167, ptr %10, align 8, !dbg !110
  %168 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 0, !dbg !110
  %169 = load ptr, ptr %168, align 8, !dbg !110
  %170 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 0, i32 0, !dbg !110
  %171 = load i64, ptr %170, align 8, !dbg !110
  %172 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 0, i32 1, !dbg !110
  %173 = load i64, ptr %172, align 8, !dbg !110
  %174 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 0, i32 2, !dbg !110
  %175 = load i64, ptr %174, align 8, !dbg !110
  %176 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 1, i32 0, !dbg !110
  %177 = load i64, ptr %176, align 8, !dbg !110
  %178 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 1, i32 1, !dbg !110
  %179 = load i64, ptr %178, align 8, !dbg !110
  %180 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %10, i32 0, i32 7, i64 1, i32 2, !dbg !110
  %181 = load i64, ptr %180, align 8, !dbg !110
  %182 = icmp eq i64 %173, 0, !dbg !110
  %183 = select i1 %182, i64 1, i64 %171, !dbg !110
  %184 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 0, i8 0, [2 x [3 x i64]] undef }, i64 %183, 7, 0, 0, !dbg !110
  %185 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %184, i64 %173, 7, 0, 1, !dbg !110
  %186 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %185, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), 7, 0, 2, !dbg !110
  %187 = mul i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), %173, !dbg !110
  %188 = mul i64 1, %173, !dbg !110
  %189 = icmp eq i64 %179, 0, !dbg !110
  %190 = select i1 %189, i64 1, i64 %177, !dbg !110
  %191 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %186, i64 %190, 7, 1, 0, !dbg !110
  %192 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %191, i64 %179, 7, 1, 1, !dbg !110
  %193 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %192, i64 %187, 7, 1, 2, !dbg !110
  %194 = mul i64 %187, %179, !dbg !110
  %195 = mul i64 %188, %179, !dbg !110
  %196 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %193, ptr %169, 0, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %196, ptr %9, align 8, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr null, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 2, i8 0, [2 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64)], [3 x i64] [i64 1, i64 0, i64 0]] }, ptr %8, align 8, !dbg !110
  %197 = load { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %8, align 8, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %197, ptr %32, align 8, !dbg !110
  %198 = call {} @_FortranAMatmulReal8Real8(ptr %32, ptr %9, ptr %9, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 74), !dbg !110
  %199 = load { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %32, align 8, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %199, ptr %7, align 8, !dbg !110
  %200 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 0, i32 0, !dbg !110
  %201 = load i64, ptr %200, align 8, !dbg !110
  %202 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 0, i32 1, !dbg !110
  %203 = load i64, ptr %202, align 8, !dbg !110
  %204 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 0, i32 2, !dbg !110
  %205 = load i64, ptr %204, align 8, !dbg !110
  %206 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 1, i32 0, !dbg !110
  %207 = load i64, ptr %206, align 8, !dbg !110
  %208 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 1, i32 1, !dbg !110
  %209 = load i64, ptr %208, align 8, !dbg !110
  %210 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 7, i64 1, i32 2, !dbg !110
  %211 = load i64, ptr %210, align 8, !dbg !110
  %212 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %7, i32 0, i32 0, !dbg !110
  %213 = load ptr, ptr %212, align 8, !dbg !110
  %214 = icmp eq i64 %203, 0, !dbg !110
  %215 = select i1 %214, i64 1, i64 %201, !dbg !110
  %216 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 2, i8 28, i8 0, i8 0, [2 x [3 x i64]] undef }, i64 %215, 7, 0, 0, !dbg !110
  %217 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %216, i64 %203, 7, 0, 1, !dbg !110
  %218 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %217, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), 7, 0, 2, !dbg !110
  %219 = mul i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), %203, !dbg !110
  %220 = mul i64 1, %203, !dbg !110
  %221 = icmp eq i64 %209, 0, !dbg !110
  %222 = select i1 %221, i64 1, i64 %207, !dbg !110
  %223 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %218, i64 %222, 7, 1, 0, !dbg !110
  %224 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %223, i64 %209, 7, 1, 1, !dbg !110
  %225 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %224, i64 %219, 7, 1, 2, !dbg !110
  %226 = mul i64 %219, %209, !dbg !110
  %227 = mul i64 %220, %209, !dbg !110
  %228 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %225, ptr %213, 0, !dbg !110
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %228, ptr %6, align 8, !dbg !110
  %229 = call {} @_FortranAAssign(ptr @_QFEp, ptr %6, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 74), !dbg !110
  call void @free(ptr %213), !dbg !110
  %230 = call ptr @_FortranAioBeginExternalListOutput(i32 6, ptr @_QQclXb13bcc9fd26dd728b1c2553343637986, i32 75), !dbg !122
  %231 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEx, align 8, !dbg !109
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %231, ptr %5, align 8, !dbg !109
  %232 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %5, i32 0, i32 7, i32 0, i32 0, !dbg !109
  %233 = load i64, ptr %232, align 8, !dbg !109
  %234 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %5, i32 0, i32 7, i32 0, i32 1, !dbg !109
  %235 = load i64, ptr %234, align 8, !dbg !109
  %236 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %5, i32 0, i32 7, i32 0, i32 2, !dbg !109
  %237 = load i64, ptr %236, align 8, !dbg !109
  %238 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %5, i32 0, i32 0, !dbg !109
  %239 = load ptr, ptr %238, align 8, !dbg !109
  %240 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %235, 7, 0, 1, !dbg !109
  %241 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %240, i64 %237, 7, 0, 2, !dbg !109
  %242 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %241, ptr %239, 0, !dbg !109
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %242, ptr %4, align 8, !dbg !109
  %243 = call contract double @_QMkernelsPtotal(ptr %4), !dbg !109
  %244 = call i1 @_FortranAioOutputReal64(ptr %230, double %243), !dbg !109
  %245 = load { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr @_QFEy, align 8, !dbg !108
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %245, ptr %3, align 8, !dbg !108
  %246 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %3, i32 0, i32 7, i32 0, i32 0, !dbg !108
  %247 = load i64, ptr %246, align 8, !dbg !108
  %248 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %3, i32 0, i32 7, i32 0, i32 1, !dbg !108
  %249 = load i64, ptr %248, align 8, !dbg !108
  %250 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %3, i32 0, i32 7, i32 0, i32 2, !dbg !108
  %251 = load i64, ptr %250, align 8, !dbg !108
  %252 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, ptr %3, i32 0, i32 0, !dbg !108
  %253 = load ptr, ptr %252, align 8, !dbg !108
  %254 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 ptrtoint (ptr getelementptr (double, ptr null, i32 1) to i64), i32 20180515, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 undef, i64 undef]] }, i64 %249, 7, 0, 1, !dbg !108
  %255 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %254, i64 %251, 7, 0, 2, !dbg !108
  %256 = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %255, ptr %253, 0, !dbg !108
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %256, ptr %2, align 8, !dbg !108
  %257 = call contract double @_QMkernelsPtotal(ptr %2), !dbg !108
  %258 = call i1 @_FortranAioOutputReal64(ptr %230, double %257), !dbg !108
  %259 = load { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr @_QFEp, align 8, !dbg !107
  store { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] } %259, ptr %1, align 8, !dbg !107
  %260 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 0, !dbg !107
  %261 = load ptr, ptr %260, align 8, !dbg !107
  %262 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 0, i32 0, !dbg !107
  %263 = load i64, ptr %262, align 8, !dbg !107
  %264 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 0, i32 1, !dbg !107
  %265 = load i64, ptr %264, align 8, !dbg !107
  %266 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 0, i32 2, !dbg !107
  %267 = load i64, ptr %266, align 8, !dbg !107
  %268 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 1, i32 0, !dbg !107
  %269 = load i64, ptr %268, align 8, !dbg !107
  %270 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 1, i32 1, !dbg !107
  %271 = load i64, ptr %270, align 8, !dbg !107
  %272 = getelementptr { ptr, i64, i32, i8, i8, i8, i8, [2 x [3 x i64]] }, ptr %1, i32 0, i32 7, i64 1, i32 2, !dbg !107
  %273 = load i64, ptr %272, align 8, !dbg !107
  %274 = sub nsw i64 1, %263, !dbg !107
  %275 = mul nsw i64 %274, 1, !dbg !107
  %276 = mul nsw i64 %275, 1, !dbg !107
  %277 = add nsw i64 %276, 0, !dbg !107
  %278 = mul nsw i64 1, %265, !dbg !107
  %279 = sub nsw i64 1, %269, !dbg !107
  %280 = mul nsw i64 %279, 1, !dbg !107
  %281 = mul nsw i64 %280, %278, !dbg !107
  %282 = add nsw i64 %281, %277, !dbg !107
  %283 = mul nsw i64 %278, %271, !dbg !107
  %284 = getelementptr double, ptr %261, i64 %282, !dbg !107
  %285 = load double, ptr %284, align 8, !dbg !107
  %286 = call i1 @_FortranAioOutputReal64(ptr %230, double %285), !dbg !107
  %287 = call i32 @_FortranAioEndIoStatement(ptr %230), !dbg !122
  ret void, !dbg !123
}

declare !dbg !124 ptr @_FortranAioBeginExternalListOutput(i32, ptr, i32)

declare !dbg !128 zeroext i1 @_FortranAioOutputReal64(ptr, double)

declare !dbg !132 i32 @_FortranAioEndIoStatement(ptr)

declare !dbg !135 void @_FortranAProgramStart(i32, ptr, ptr, ptr)

declare !dbg !138 void @_FortranAProgramEndStatement()

define i32 @main(i32 %0, ptr %1, ptr %2) #0 !dbg !140 {
  call void @_FortranAProgramStart(i32 %0, ptr %1, ptr %2, ptr null), !dbg !141
  call void @_QQmain(), !dbg !141
  call void @_FortranAProgramEndStatement(), !dbg !141
  ret i32 0, !dbg !141
}

declare !dbg !142 {} @_FortranAMatmulReal8Real8(ptr, ptr, ptr, ptr, i32)

declare !dbg !145 {} @_FortranAAssign(ptr, ptr, ptr, i32)

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare !dbg !148 ptr @llvm.stacksave.p0() #2

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare !dbg !151 void @llvm.stackrestore.p0(ptr) #2

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #3

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) #4

; Function Attrs: nounwind
declare void @__kmpc_dispatch_init_4u(ptr, i32, i32, i32, i32, i32, i32) #3

; Function Attrs: nounwind
declare i32 @__kmpc_dispatch_next_4u(ptr, i32, ptr, ptr, ptr, ptr) #3

define internal void @.omp.reduction.func(ptr %0, ptr %1) {
  %3 = getelementptr inbounds [1 x ptr], ptr %0, i64 0, i64 0
  %4 = load ptr, ptr %3, align 8
  %5 = load double, ptr %4, align 8
  %6 = getelementptr inbounds [1 x ptr], ptr %1, i64 0, i64 0
  %7 = load ptr, ptr %6, align 8
  %8 = load double, ptr %7, align 8
  %9 = fadd contract double %5, %8
  store double %9, ptr %4, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce(ptr, i32, i32, i64, ptr, ptr, ptr) #4

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce(ptr, i32, ptr) #4

; Function Attrs: nounwind
declare !callback !154 void @__kmpc_fork_call(ptr, i32, ptr, ...) #3

attributes #0 = { "frame-pointer"="all" "target-cpu"="x86-64" }
attributes #1 = { nounwind "frame-pointer"="all" "target-cpu"="x86-64" }
attributes #2 = { nocallback nofree nosync nounwind willreturn }
attributes #3 = { nounwind }
attributes #4 = { convergent nounwind }

!llvm.module.flags = !{!21, !22, !23, !24}
!llvm.dbg.cu = !{!6}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "m", linkageName: "_QFEm", scope: !2, file: !3, line: 62, type: !10, isLocal: false, isDefinition: true)
!2 = distinct !DISubprogram(name: "_QQmain", linkageName: "_QQmain", scope: !3, file: !3, line: 59, type: !4, scopeLine: 59, spFlags: DISPFlagDefinition, unit: !6)
!3 = !DIFile(filename: "omp_fortran.f90", directory: "/work/main/pass/tests/ir")
!4 = !DISubroutineType(cc: DW_CC_program, types: !5)
!5 = !{}
!6 = distinct !DICompileUnit(language: DW_LANG_Fortran95, file: !3, producer: "Debian flang version 19.1.7", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !7)
!7 = !{!0, !8, !15, !19}
!8 = !DIGlobalVariableExpression(var: !9, expr: !DIExpression())
!9 = distinct !DIGlobalVariable(name: "p", linkageName: "_QFEp", scope: !2, file: !3, line: 62, type: !10, isLocal: false, isDefinition: true)
!10 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, elements: !12, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref), allocated: !DIExpression(DW_OP_push_object_address, DW_OP_deref, DW_OP_lit0, DW_OP_ne))
!11 = !DIBasicType(name: "real", size: 64, encoding: DW_ATE_float)
!12 = !{!13, !14}
!13 = !DISubrange(count: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 32, DW_OP_deref), lowerBound: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 24, DW_OP_deref))
!14 = !DISubrange(count: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 56, DW_OP_deref), lowerBound: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 48, DW_OP_deref))
!15 = !DIGlobalVariableExpression(var: !16, expr: !DIExpression())
!16 = distinct !DIGlobalVariable(name: "x", linkageName: "_QFEx", scope: !2, file: !3, line: 62, type: !17, isLocal: false, isDefinition: true)
!17 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, elements: !18, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref), allocated: !DIExpression(DW_OP_push_object_address, DW_OP_deref, DW_OP_lit0, DW_OP_ne))
!18 = !{!13}
!19 = !DIGlobalVariableExpression(var: !20, expr: !DIExpression())
!20 = distinct !DIGlobalVariable(name: "y", linkageName: "_QFEy", scope: !2, file: !3, line: 62, type: !17, isLocal: false, isDefinition: true)
!21 = !{i32 2, !"Debug Info Version", i32 3}
!22 = !{i32 7, !"openmp", i32 11}
!23 = !{i32 8, !"PIC Level", i32 2}
!24 = !{i32 7, !"PIE Level", i32 2}
!25 = distinct !DISubprogram(name: "scale", linkageName: "_QMkernelsPscale", scope: !26, file: !3, line: 10, type: !27, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !6)
!26 = !DIModule(scope: !6, name: "kernels", file: !3, line: 9)
!27 = !DISubroutineType(cc: DW_CC_normal, types: !28)
!28 = !{!29, !11}
!29 = !DICompositeType(tag: DW_TAG_array_type, baseType: !11, elements: !18, dataLocation: !DIExpression(DW_OP_push_object_address, DW_OP_deref))
!30 = !DILocation(line: 13, column: 16, scope: !25)
!31 = !DILocation(line: 11, column: 31, scope: !25)
!32 = !DILocalVariable(name: "a", arg: 1, scope: !25, file: !3, line: 11, type: !29)
!33 = !DILocation(line: 10, column: 3, scope: !25)
!34 = !DILocalVariable(name: "f", arg: 2, scope: !25, file: !3, line: 12, type: !11)
!35 = !DILocalVariable(name: "i", scope: !25, file: !3, line: 13, type: !36)
!36 = !DIBasicType(name: "integer", size: 32, encoding: DW_ATE_signed)
!37 = !DILocation(line: 14, column: 11, scope: !25)
!38 = !DILocation(line: 18, column: 3, scope: !25)
!39 = distinct !DISubprogram(name: "_QMkernelsPscale..omp_par", linkageName: "_QMkernelsPscale..omp_par", scope: null, file: !3, type: !40, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!40 = !DISubroutineType(types: !5)
!41 = !DILocation(line: 13, column: 16, scope: !39)
!42 = !DILocalVariable(name: "i", scope: !39, file: !3, line: 13, type: !36)
!43 = !DILocation(line: 10, column: 3, scope: !39)
!44 = !DILocation(line: 14, column: 11, scope: !39)
!45 = !DILocation(line: 16, column: 7, scope: !39)
!46 = distinct !DISubprogram(name: "dyn", linkageName: "_QMkernelsPdyn", scope: !26, file: !3, line: 20, type: !47, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !6)
!47 = !DISubroutineType(cc: DW_CC_normal, types: !48)
!48 = !{!29, !29}
!49 = !DILocation(line: 23, column: 16, scope: !46)
!50 = !DILocation(line: 21, column: 31, scope: !46)
!51 = !DILocalVariable(name: "a", arg: 1, scope: !46, file: !3, line: 21, type: !29)
!52 = !DILocation(line: 20, column: 3, scope: !46)
!53 = !DILocalVariable(name: "b", arg: 2, scope: !46, file: !3, line: 22, type: !29)
!54 = !DILocalVariable(name: "i", scope: !46, file: !3, line: 23, type: !36)
!55 = !DILocation(line: 24, column: 11, scope: !46)
!56 = !DILocation(line: 28, column: 3, scope: !46)
!57 = distinct !DISubprogram(name: "_QMkernelsPdyn..omp_par", linkageName: "_QMkernelsPdyn..omp_par", scope: null, file: !3, type: !40, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!58 = !DILocation(line: 23, column: 16, scope: !57)
!59 = !DILocalVariable(name: "i", scope: !57, file: !3, line: 23, type: !36)
!60 = !DILocation(line: 20, column: 3, scope: !57)
!61 = !DILocation(line: 24, column: 11, scope: !57)
!62 = !DILocation(line: 26, column: 7, scope: !57)
!63 = distinct !DISubprogram(name: "total", linkageName: "_QMkernelsPtotal", scope: !26, file: !3, line: 30, type: !64, scopeLine: 30, spFlags: DISPFlagDefinition, unit: !6)
!64 = !DISubroutineType(cc: DW_CC_normal, types: !65)
!65 = !{!11, !29}
!66 = !DILocation(line: 32, column: 16, scope: !63)
!67 = !DILocation(line: 33, column: 16, scope: !63)
!68 = !DILocation(line: 31, column: 28, scope: !63)
!69 = !DILocalVariable(name: "a", arg: 1, scope: !63, file: !3, line: 31, type: !29)
!70 = !DILocation(line: 30, column: 3, scope: !63)
!71 = !DILocalVariable(name: "i", scope: !63, file: !3, line: 33, type: !36)
!72 = !DILocalVariable(name: "s", scope: !63, file: !3, line: 32, type: !11)
!73 = !DILocation(line: 34, column: 5, scope: !63)
!74 = !DILocation(line: 35, column: 11, scope: !63)
!75 = !DILocation(line: 39, column: 3, scope: !63)
!76 = distinct !DISubprogram(name: "_QMkernelsPtotal..omp_par", linkageName: "_QMkernelsPtotal..omp_par", scope: null, file: !3, type: !40, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!77 = !DILocation(line: 33, column: 16, scope: !76)
!78 = !DILocalVariable(name: "i", scope: !76, file: !3, line: 33, type: !36)
!79 = !DILocation(line: 34, column: 5, scope: !76)
!80 = !DILocation(line: 35, column: 11, scope: !76)
!81 = !DILocalVariable(name: "s", scope: !76, file: !3, line: 32, type: !11)
!82 = !DILocation(line: 37, column: 7, scope: !76)
!83 = distinct !DISubprogram(name: "phases", linkageName: "_QMkernelsPphases", scope: !26, file: !3, line: 41, type: !47, scopeLine: 41, spFlags: DISPFlagDefinition, unit: !6)
!84 = !DILocation(line: 43, column: 16, scope: !83)
!85 = !DILocation(line: 44, column: 16, scope: !83)
!86 = !DILocation(line: 42, column: 31, scope: !83)
!87 = !DILocalVariable(name: "a", arg: 1, scope: !83, file: !3, line: 42, type: !29)
!88 = !DILocation(line: 41, column: 3, scope: !83)
!89 = !DILocalVariable(name: "b", arg: 2, scope: !83, file: !3, line: 42, type: !29)
!90 = !DILocalVariable(name: "i", scope: !83, file: !3, line: 44, type: !36)
!91 = !DILocalVariable(name: "t", scope: !83, file: !3, line: 43, type: !11)
!92 = !DILocation(line: 45, column: 11, scope: !83)
!93 = !DILocation(line: 51, column: 11, scope: !83)
!94 = !DILocation(line: 56, column: 3, scope: !83)
!95 = distinct !DISubprogram(name: "_QMkernelsPphases..omp_par", linkageName: "_QMkernelsPphases..omp_par", scope: null, file: !3, type: !40, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6, retainedNodes: !5)
!96 = !DILocation(line: 51, column: 11, scope: !95)
!97 = !DILocation(line: 44, column: 16, scope: !95)
!98 = !DILocation(line: 43, column: 16, scope: !95)
!99 = !DILocalVariable(name: "t", scope: !95, file: !3, line: 43, type: !11)
!100 = !DILocalVariable(name: "i", scope: !95, file: !3, line: 44, type: !36)
!101 = !DILocation(line: 41, column: 3, scope: !95)
!102 = !DILocation(line: 46, column: 11, scope: !95)
!103 = !DILocation(line: 45, column: 11, scope: !95)
!104 = !DILocation(line: 53, column: 7, scope: !95)
!105 = !DILocation(line: 48, column: 7, scope: !95)
!106 = !DILocation(line: 49, column: 7, scope: !95)
!107 = !DILocation(line: 75, column: 32, scope: !2)
!108 = !DILocation(line: 75, column: 22, scope: !2)
!109 = !DILocation(line: 75, column: 12, scope: !2)
!110 = !DILocation(line: 74, column: 3, scope: !2)
!111 = !DILocation(line: 73, column: 3, scope: !2)
!112 = !DILocation(line: 72, column: 3, scope: !2)
!113 = !DILocation(line: 71, column: 3, scope: !2)
!114 = !DILocation(line: 70, column: 3, scope: !2)
!115 = !DILocation(line: 69, column: 3, scope: !2)
!116 = !DILocation(line: 68, column: 3, scope: !2)
!117 = !DILocation(line: 66, column: 5, scope: !2)
!118 = !DILocation(line: 64, column: 3, scope: !2)
!119 = !DILocation(line: 63, column: 14, scope: !2)
!120 = !DILocalVariable(name: "i", scope: !2, file: !3, line: 63, type: !36)
!121 = !DILocation(line: 65, column: 3, scope: !2)
!122 = !DILocation(line: 75, column: 3, scope: !2)
!123 = !DILocation(line: 76, column: 1, scope: !2)
!124 = !DISubprogram(name: "_FortranAioBeginExternalListOutput", linkageName: "_FortranAioBeginExternalListOutput", scope: !3, file: !3, line: 75, type: !125, scopeLine: 75, spFlags: 0)
!125 = !DISubroutineType(cc: DW_CC_normal, types: !126)
!126 = !{!36, !36, !127, !36}
!127 = !DIBasicType(name: "integer", size: 8, encoding: DW_ATE_signed)
!128 = !DISubprogram(name: "_FortranAioOutputReal64", linkageName: "_FortranAioOutputReal64", scope: !3, file: !3, line: 75, type: !129, scopeLine: 75, spFlags: 0)
!129 = !DISubroutineType(cc: DW_CC_normal, types: !130)
!130 = !{!131, !127, !11}
!131 = !DIBasicType(name: "integer", size: 1, encoding: DW_ATE_signed)
!132 = !DISubprogram(name: "_FortranAioEndIoStatement", linkageName: "_FortranAioEndIoStatement", scope: !3, file: !3, line: 75, type: !133, scopeLine: 75, spFlags: 0)
!133 = !DISubroutineType(cc: DW_CC_normal, types: !134)
!134 = !{!36, !127}
!135 = !DISubprogram(name: "_FortranAProgramStart", linkageName: "_FortranAProgramStart", scope: !3, file: !3, line: 76, type: !136, scopeLine: 76, spFlags: 0)
!136 = !DISubroutineType(cc: DW_CC_normal, types: !137)
!137 = !{!36, !36, !36, !36}
!138 = !DISubprogram(name: "_FortranAProgramEndStatement", linkageName: "_FortranAProgramEndStatement", scope: !3, file: !3, line: 76, type: !139, scopeLine: 76, spFlags: 0)
!139 = !DISubroutineType(cc: DW_CC_normal, types: !5)
!140 = distinct !DISubprogram(name: "main", linkageName: "main", scope: !3, file: !3, line: 76, type: !136, scopeLine: 76, spFlags: DISPFlagDefinition, unit: !6)
!141 = !DILocation(line: 76, column: 1, scope: !140)
!142 = !DISubprogram(name: "_FortranAMatmulReal8Real8", linkageName: "_FortranAMatmulReal8Real8", scope: !3, file: !3, line: 74, type: !143, scopeLine: 74, spFlags: 0)
!143 = !DISubroutineType(cc: DW_CC_normal, types: !144)
!144 = !{!36, !36, !36, !36, !127, !36}
!145 = !DISubprogram(name: "_FortranAAssign", linkageName: "_FortranAAssign", scope: !3, file: !3, line: 68, type: !146, scopeLine: 68, spFlags: 0)
!146 = !DISubroutineType(cc: DW_CC_normal, types: !147)
!147 = !{!36, !36, !36, !127, !36}
!148 = !DISubprogram(name: "llvm.stacksave.p0", linkageName: "llvm.stacksave.p0", scope: !3, file: !3, line: 1, type: !149, scopeLine: 1, spFlags: 0)
!149 = !DISubroutineType(cc: DW_CC_normal, types: !150)
!150 = !{!36}
!151 = !DISubprogram(name: "llvm.stackrestore.p0", linkageName: "llvm.stackrestore.p0", scope: !3, file: !3, line: 1, type: !152, scopeLine: 1, spFlags: 0)
!152 = !DISubroutineType(cc: DW_CC_normal, types: !153)
!153 = !{!127}
!154 = !{!155}
!155 = !{i64 2, i64 -1, i64 -1, i1 true}
