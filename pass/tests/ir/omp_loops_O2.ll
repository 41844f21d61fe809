; ModuleID = 'omp_loops.c'
source_filename = "omp_loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [26 x i8] c";omp_loops.c;scale;11;1;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 25, ptr @0 }, align 8
@2 = private unnamed_addr constant [27 x i8] c";omp_loops.c;scale;11;42;;\00", align 1
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 26, ptr @2 }, align 8
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 25, ptr @0 }, align 8
@5 = private unnamed_addr constant [24 x i8] c";omp_loops.c;dyn;19;1;;\00", align 1
@6 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 23, ptr @5 }, align 8
@7 = private unnamed_addr constant [24 x i8] c";omp_loops.c;sum;26;1;;\00", align 1
@8 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 23, ptr @7 }, align 8
@9 = private unnamed_addr constant [25 x i8] c";omp_loops.c;sum;26;42;;\00", align 1
@10 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 24, ptr @9 }, align 8
@.gomp_critical_user_.reduction.var = common global [8 x i32] zeroinitializer, align 8
@11 = private unnamed_addr constant %struct.ident_t { i32 0, i32 18, i32 0, i32 24, ptr @9 }, align 8
@12 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 23, ptr @7 }, align 8
@13 = private unnamed_addr constant [27 x i8] c";omp_loops.c;phases;38;1;;\00", align 1
@14 = private unnamed_addr constant %struct.ident_t { i32 0, i32 34, i32 0, i32 26, ptr @13 }, align 8
@15 = private unnamed_addr constant [27 x i8] c";omp_loops.c;phases;33;1;;\00", align 1
@16 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 26, ptr @15 }, align 8

; Function Attrs: nounwind uwtable
define dso_local void @scale(ptr noundef %0, double noundef %1, i32 noundef %2) local_unnamed_addr #0 !dbg !11 {
  %4 = alloca ptr, align 8, !DIAssignID !21
    #dbg_assign(i1 undef, !18, !DIExpression(), !21, ptr %4, !DIExpression(), !22)
  %5 = alloca double, align 8, !DIAssignID !23
    #dbg_assign(i1 undef, !19, !DIExpression(), !23, ptr %5, !DIExpression(), !22)
  %6 = alloca i32, align 4, !DIAssignID !24
    #dbg_assign(i1 undef, !20, !DIExpression(), !24, ptr %6, !DIExpression(), !22)
  store ptr %0, ptr %4, align 8, !tbaa !25, !DIAssignID !29
    #dbg_assign(ptr %0, !18, !DIExpression(), !29, ptr %4, !DIExpression(), !22)
  store double %1, ptr %5, align 8, !tbaa !30, !DIAssignID !32
    #dbg_assign(double %1, !19, !DIExpression(), !32, ptr %5, !DIExpression(), !22)
  store i32 %2, ptr %6, align 4, !tbaa !33, !DIAssignID !35
    #dbg_assign(i32 %2, !20, !DIExpression(), !35, ptr %6, !DIExpression(), !22)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 3, ptr nonnull @scale.omp_outlined, ptr nonnull %6, ptr nonnull %4, ptr nonnull %5), !dbg !36
  ret void, !dbg !37
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) local_unnamed_addr #2

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @scale.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4) #3 !dbg !38 {
  %6 = alloca i32, align 4, !DIAssignID !54
    #dbg_assign(i1 undef, !55, !DIExpression(), !54, ptr %6, !DIExpression(), !71)
  %7 = alloca i32, align 4, !DIAssignID !73
    #dbg_assign(i1 undef, !66, !DIExpression(), !73, ptr %7, !DIExpression(), !71)
  %8 = alloca i32, align 4, !DIAssignID !74
    #dbg_assign(i1 undef, !67, !DIExpression(), !74, ptr %8, !DIExpression(), !71)
  %9 = alloca i32, align 4, !DIAssignID !75
    #dbg_value(ptr %0, !49, !DIExpression(), !76)
    #dbg_value(ptr poison, !50, !DIExpression(), !76)
    #dbg_value(ptr %2, !51, !DIExpression(), !76)
    #dbg_value(ptr %3, !52, !DIExpression(), !76)
    #dbg_value(ptr %4, !53, !DIExpression(), !76)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !77), !dbg !80
    #dbg_assign(i1 undef, !68, !DIExpression(), !75, ptr %9, !DIExpression(), !71)
    #dbg_value(ptr %0, !58, !DIExpression(), !71)
    #dbg_value(ptr poison, !59, !DIExpression(), !71)
    #dbg_value(ptr %2, !60, !DIExpression(), !71)
    #dbg_value(ptr %3, !61, !DIExpression(), !71)
    #dbg_value(ptr %4, !62, !DIExpression(), !71)
  %10 = load i32, ptr %2, align 4, !dbg !81, !tbaa !33, !noalias !77
    #dbg_value(i32 %10, !64, !DIExpression(DW_OP_constu, 1, DW_OP_minus, DW_OP_stack_value), !71)
    #dbg_value(i32 0, !65, !DIExpression(), !71)
  %11 = icmp sgt i32 %10, 0, !dbg !82
  br i1 %11, label %12, label %106, !dbg !82

12:                                               ; preds = %5
  %13 = add nsw i32 %10, -1, !dbg !82
    #dbg_value(i32 %13, !64, !DIExpression(), !71)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %6) #2, !dbg !82, !noalias !77
  store i32 0, ptr %6, align 4, !dbg !83, !tbaa !33, !noalias !77, !DIAssignID !84
    #dbg_assign(i32 0, !55, !DIExpression(), !84, ptr %6, !DIExpression(), !71)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #2, !dbg !82, !noalias !77
  store i32 %13, ptr %7, align 4, !dbg !83, !tbaa !33, !noalias !77, !DIAssignID !85
    #dbg_assign(i32 %13, !66, !DIExpression(), !85, ptr %7, !DIExpression(), !71)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #2, !dbg !82, !noalias !77
  store i32 1, ptr %8, align 4, !dbg !83, !tbaa !33, !noalias !77, !DIAssignID !86
    #dbg_assign(i32 1, !67, !DIExpression(), !86, ptr %8, !DIExpression(), !71)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #2, !dbg !82, !noalias !77
  store i32 0, ptr %9, align 4, !dbg !83, !tbaa !33, !noalias !77, !DIAssignID !87
    #dbg_assign(i32 0, !68, !DIExpression(), !87, ptr %9, !DIExpression(), !71)
  %14 = load i32, ptr %0, align 4, !dbg !82, !tbaa !33, !alias.scope !77
  call void @__kmpc_for_static_init_4(ptr nonnull @1, i32 %14, i32 34, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8, i32 1, i32 1), !dbg !88, !noalias !77
  %15 = load i32, ptr %7, align 4, !dbg !83, !noalias !77
  %16 = call i32 @llvm.smin.i32(i32 %15, i32 %13), !dbg !83
  store i32 %16, ptr %7, align 4, !dbg !83, !tbaa !33, !noalias !77, !DIAssignID !89
    #dbg_assign(i32 %16, !66, !DIExpression(), !89, ptr %7, !DIExpression(), !71)
  %17 = load i32, ptr %6, align 4, !dbg !83, !tbaa !33, !noalias !77
    #dbg_value(i32 %17, !63, !DIExpression(), !71)
  %18 = icmp sgt i32 %17, %16, !dbg !82
  br i1 %18, label %105, label %19, !dbg !82

19:                                               ; preds = %12
  %20 = load ptr, ptr %3, align 8, !tbaa !25, !noalias !77
  %21 = sext i32 %17 to i64, !dbg !82
  %22 = add nsw i32 %16, 1, !dbg !82
  %23 = sub i32 %16, %17, !dbg !82
  %24 = zext i32 %23 to i64, !dbg !82
  %25 = add nuw nsw i64 %24, 1, !dbg !82
  %26 = icmp ult i32 %23, 11, !dbg !82
  br i1 %26, label %59, label %27, !dbg !82

27:                                               ; preds = %19
  %28 = shl nsw i64 %21, 3, !dbg !82
  %29 = getelementptr i8, ptr %20, i64 %28, !dbg !82
  %30 = sub i32 %16, %17, !dbg !82
  %31 = zext i32 %30 to i64, !dbg !82
  %32 = add nsw i64 %21, %31, !dbg !82
  %33 = shl nsw i64 %32, 3, !dbg !82
  %34 = getelementptr i8, ptr %20, i64 %33, !dbg !82
  %35 = getelementptr i8, ptr %34, i64 8, !dbg !82
  %36 = getelementptr inbounds i8, ptr %4, i64 8, !dbg !82
  %37 = icmp ult ptr %29, %36, !dbg !82
  %38 = icmp ugt ptr %35, %4, !dbg !82
  %39 = and i1 %37, %38, !dbg !82
  br i1 %39, label %59, label %40, !dbg !82

40:                                               ; preds = %27
  %41 = and i64 %25, 8589934588, !dbg !82
  %42 = add nsw i64 %41, %21, !dbg !82
  %43 = getelementptr double, ptr %20, i64 %21, !dbg !82
  %44 = load double, ptr %4, align 8, !tbaa !30, !alias.scope !90, !noalias !77
  %45 = insertelement <2 x double> poison, double %44, i64 0
  %46 = shufflevector <2 x double> %45, <2 x double> poison, <2 x i32> zeroinitializer
  br label %47, !dbg !82

47:                                               ; preds = %47, %40
  %48 = phi i64 [ 0, %40 ], [ %55, %47 ]
  %49 = getelementptr double, ptr %43, i64 %48, !dbg !93
  %50 = getelementptr inbounds i8, ptr %49, i64 16, !dbg !93
  %51 = load <2 x double>, ptr %49, align 8, !dbg !93, !tbaa !30, !alias.scope !94, !noalias !96
  %52 = load <2 x double>, ptr %50, align 8, !dbg !93, !tbaa !30, !alias.scope !94, !noalias !96
  %53 = fmul <2 x double> %51, %46, !dbg !82
  %54 = fmul <2 x double> %52, %46, !dbg !82
  store <2 x double> %53, ptr %49, align 8, !dbg !97, !tbaa !30, !alias.scope !94, !noalias !96
  store <2 x double> %54, ptr %50, align 8, !dbg !97, !tbaa !30, !alias.scope !94, !noalias !96
  %55 = add nuw i64 %48, 4
  %56 = icmp eq i64 %55, %41
  br i1 %56, label %57, label %47, !llvm.loop !98

57:                                               ; preds = %47
  %58 = icmp eq i64 %25, %41, !dbg !82
  br i1 %58, label %105, label %59, !dbg !82

59:                                               ; preds = %57, %27, %19
  %60 = phi i64 [ %21, %27 ], [ %21, %19 ], [ %42, %57 ]
  %61 = add i32 %16, 1, !dbg !88
  %62 = trunc i64 %60 to i32, !dbg !88
  %63 = sub i32 %61, %62, !dbg !88
  %64 = sub i32 %16, %62, !dbg !88
  %65 = and i32 %63, 3, !dbg !88
  %66 = icmp eq i32 %65, 0, !dbg !88
  br i1 %66, label %77, label %67, !dbg !88

67:                                               ; preds = %59, %67
  %68 = phi i64 [ %74, %67 ], [ %60, %59 ]
  %69 = phi i32 [ %75, %67 ], [ 0, %59 ]
    #dbg_value(i64 %68, !63, !DIExpression(), !71)
    #dbg_value(i64 %68, !65, !DIExpression(), !71)
  %70 = getelementptr inbounds double, ptr %20, i64 %68, !dbg !93
  %71 = load double, ptr %70, align 8, !dbg !93, !tbaa !30, !noalias !77
  %72 = load double, ptr %4, align 8, !dbg !102, !tbaa !30, !noalias !77
  %73 = fmul double %71, %72, !dbg !103
    #dbg_value(double %73, !69, !DIExpression(), !104)
  store double %73, ptr %70, align 8, !dbg !97, !tbaa !30, !noalias !77
  %74 = add nsw i64 %68, 1, !dbg !82
    #dbg_value(i64 %74, !63, !DIExpression(), !71)
  %75 = add i32 %69, 1, !dbg !82
  %76 = icmp eq i32 %75, %65, !dbg !82
  br i1 %76, label %77, label %67, !dbg !82, !llvm.loop !105

77:                                               ; preds = %67, %59
  %78 = phi i64 [ %60, %59 ], [ %74, %67 ]
  %79 = icmp ult i32 %64, 3, !dbg !88
  br i1 %79, label %105, label %80, !dbg !88

80:                                               ; preds = %77
  %81 = getelementptr i8, ptr %20, i64 8, !dbg !88
  %82 = getelementptr i8, ptr %20, i64 16, !dbg !88
  %83 = getelementptr i8, ptr %20, i64 24, !dbg !88
  br label %84, !dbg !88

84:                                               ; preds = %84, %80
  %85 = phi i64 [ %78, %80 ], [ %102, %84 ]
    #dbg_value(i64 %85, !63, !DIExpression(), !71)
    #dbg_value(i64 %85, !65, !DIExpression(), !71)
  %86 = getelementptr inbounds double, ptr %20, i64 %85, !dbg !93
  %87 = load double, ptr %86, align 8, !dbg !93, !tbaa !30, !noalias !77
  %88 = load double, ptr %4, align 8, !dbg !102, !tbaa !30, !noalias !77
  %89 = fmul double %87, %88, !dbg !103
    #dbg_value(double %89, !69, !DIExpression(), !104)
  store double %89, ptr %86, align 8, !dbg !97, !tbaa !30, !noalias !77
    #dbg_value(i64 %85, !63, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !71)
    #dbg_value(i64 %85, !65, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !71)
  %90 = getelementptr double, ptr %81, i64 %85, !dbg !93
  %91 = load double, ptr %90, align 8, !dbg !93, !tbaa !30, !noalias !77
  %92 = load double, ptr %4, align 8, !dbg !102, !tbaa !30, !noalias !77
  %93 = fmul double %91, %92, !dbg !103
    #dbg_value(double %93, !69, !DIExpression(), !104)
  store double %93, ptr %90, align 8, !dbg !97, !tbaa !30, !noalias !77
    #dbg_value(i64 %85, !63, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !71)
    #dbg_value(i64 %85, !65, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !71)
  %94 = getelementptr double, ptr %82, i64 %85, !dbg !93
  %95 = load double, ptr %94, align 8, !dbg !93, !tbaa !30, !noalias !77
  %96 = load double, ptr %4, align 8, !dbg !102, !tbaa !30, !noalias !77
  %97 = fmul double %95, %96, !dbg !103
    #dbg_value(double %97, !69, !DIExpression(), !104)
  store double %97, ptr %94, align 8, !dbg !97, !tbaa !30, !noalias !77
    #dbg_value(i64 %85, !63, !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value), !71)
    #dbg_value(i64 %85, !65, !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value), !71)
  %98 = getelementptr double, ptr %83, i64 %85, !dbg !93
  %99 = load double, ptr %98, align 8, !dbg !93, !tbaa !30, !noalias !77
  %100 = load double, ptr %4, align 8, !dbg !102, !tbaa !30, !noalias !77
  %101 = fmul double %99, %100, !dbg !103
    #dbg_value(double %101, !69, !DIExpression(), !104)
  store double %101, ptr %98, align 8, !dbg !97, !tbaa !30, !noalias !77
  %102 = add nsw i64 %85, 4, !dbg !82
    #dbg_value(i64 %102, !63, !DIExpression(), !71)
  %103 = trunc i64 %102 to i32, !dbg !82
  %104 = icmp eq i32 %22, %103, !dbg !82
  br i1 %104, label %105, label %84, !dbg !82, !llvm.loop !107

105:                                              ; preds = %77, %84, %57, %12
  call void @__kmpc_for_static_fini(ptr nonnull @3, i32 %14), !dbg !99, !noalias !77
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #2, !dbg !88, !noalias !77
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #2, !dbg !88, !noalias !77
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #2, !dbg !88, !noalias !77
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %6) #2, !dbg !88, !noalias !77
  br label %106, !dbg !88

106:                                              ; preds = %5, %105
  ret void, !dbg !80
}

; Function Attrs: nounwind
declare !callback !108 void @__kmpc_fork_call(ptr, i32, ptr, ...) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local void @dyn(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #0 !dbg !110 {
  %4 = alloca ptr, align 8, !DIAssignID !119
    #dbg_assign(i1 undef, !116, !DIExpression(), !119, ptr %4, !DIExpression(), !120)
  %5 = alloca ptr, align 8, !DIAssignID !121
    #dbg_assign(i1 undef, !117, !DIExpression(), !121, ptr %5, !DIExpression(), !120)
  %6 = alloca i32, align 4, !DIAssignID !122
    #dbg_assign(i1 undef, !118, !DIExpression(), !122, ptr %6, !DIExpression(), !120)
  store ptr %0, ptr %4, align 8, !tbaa !25, !DIAssignID !123
    #dbg_assign(ptr %0, !116, !DIExpression(), !123, ptr %4, !DIExpression(), !120)
  store ptr %1, ptr %5, align 8, !tbaa !25, !DIAssignID !124
    #dbg_assign(ptr %1, !117, !DIExpression(), !124, ptr %5, !DIExpression(), !120)
  store i32 %2, ptr %6, align 4, !tbaa !33, !DIAssignID !125
    #dbg_assign(i32 %2, !118, !DIExpression(), !125, ptr %6, !DIExpression(), !120)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @6, i32 3, ptr nonnull @dyn.omp_outlined, ptr nonnull %6, ptr nonnull %4, ptr nonnull %5), !dbg !126
  ret void, !dbg !127
}

; Function Attrs: nounwind
declare void @__kmpc_dispatch_init_4(ptr, i32, i32, i32, i32, i32, i32) local_unnamed_addr #2

; Function Attrs: nounwind
declare i32 @__kmpc_dispatch_next_4(ptr, i32, ptr, ptr, ptr, ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__kmpc_dispatch_deinit(ptr, i32) local_unnamed_addr #2

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @dyn.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4) #3 !dbg !128 {
  %6 = alloca i32, align 4, !DIAssignID !138
    #dbg_assign(i1 undef, !139, !DIExpression(), !138, ptr %6, !DIExpression(), !153)
  %7 = alloca i32, align 4, !DIAssignID !155
    #dbg_assign(i1 undef, !150, !DIExpression(), !155, ptr %7, !DIExpression(), !153)
  %8 = alloca i32, align 4, !DIAssignID !156
    #dbg_assign(i1 undef, !151, !DIExpression(), !156, ptr %8, !DIExpression(), !153)
  %9 = alloca i32, align 4, !DIAssignID !157
    #dbg_value(ptr %0, !133, !DIExpression(), !158)
    #dbg_value(ptr poison, !134, !DIExpression(), !158)
    #dbg_value(ptr %2, !135, !DIExpression(), !158)
    #dbg_value(ptr %3, !136, !DIExpression(), !158)
    #dbg_value(ptr %4, !137, !DIExpression(), !158)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !159), !dbg !162
    #dbg_assign(i1 undef, !152, !DIExpression(), !157, ptr %9, !DIExpression(), !153)
    #dbg_value(ptr %0, !142, !DIExpression(), !153)
    #dbg_value(ptr poison, !143, !DIExpression(), !153)
    #dbg_value(ptr %2, !144, !DIExpression(), !153)
    #dbg_value(ptr %3, !145, !DIExpression(), !153)
    #dbg_value(ptr %4, !146, !DIExpression(), !153)
  %10 = load i32, ptr %2, align 4, !dbg !163, !tbaa !33, !noalias !159
    #dbg_value(i32 %10, !148, !DIExpression(DW_OP_constu, 1, DW_OP_minus, DW_OP_stack_value), !153)
    #dbg_value(i32 0, !149, !DIExpression(), !153)
  %11 = icmp sgt i32 %10, 0, !dbg !164
  br i1 %11, label %12, label %66, !dbg !164

12:                                               ; preds = %5
  %13 = add nsw i32 %10, -1, !dbg !164
    #dbg_value(i32 %13, !148, !DIExpression(), !153)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %6) #2, !dbg !164, !noalias !159
  store i32 0, ptr %6, align 4, !dbg !165, !tbaa !33, !noalias !159, !DIAssignID !166
    #dbg_assign(i32 0, !139, !DIExpression(), !166, ptr %6, !DIExpression(), !153)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #2, !dbg !164, !noalias !159
  store i32 %13, ptr %7, align 4, !dbg !165, !tbaa !33, !noalias !159, !DIAssignID !167
    #dbg_assign(i32 %13, !150, !DIExpression(), !167, ptr %7, !DIExpression(), !153)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #2, !dbg !164, !noalias !159
  store i32 1, ptr %8, align 4, !dbg !165, !tbaa !33, !noalias !159, !DIAssignID !168
    #dbg_assign(i32 1, !151, !DIExpression(), !168, ptr %8, !DIExpression(), !153)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #2, !dbg !164, !noalias !159
  store i32 0, ptr %9, align 4, !dbg !165, !tbaa !33, !noalias !159, !DIAssignID !169
    #dbg_assign(i32 0, !152, !DIExpression(), !169, ptr %9, !DIExpression(), !153)
  %14 = load i32, ptr %0, align 4, !dbg !164, !tbaa !33, !alias.scope !159
  tail call void @__kmpc_dispatch_init_4(ptr nonnull @6, i32 %14, i32 1073741859, i32 0, i32 %13, i32 1, i32 4), !dbg !164, !noalias !159
  %15 = call i32 @__kmpc_dispatch_next_4(ptr nonnull @6, i32 %14, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8), !dbg !164, !noalias !159
  %16 = icmp eq i32 %15, 0, !dbg !164
  br i1 %16, label %65, label %20, !dbg !164

17:                                               ; preds = %55, %51, %20
  %18 = call i32 @__kmpc_dispatch_next_4(ptr nonnull @6, i32 %14, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8), !dbg !164, !noalias !159
  %19 = icmp eq i32 %18, 0, !dbg !164
  br i1 %19, label %65, label %20, !dbg !164, !llvm.loop !170

20:                                               ; preds = %12, %17
  %21 = load i32, ptr %6, align 4, !dbg !165, !tbaa !33, !noalias !159
    #dbg_value(i32 %21, !147, !DIExpression(), !153)
  %22 = load i32, ptr %7, align 4, !tbaa !33, !noalias !159, !llvm.access.group !173
  %23 = icmp sgt i32 %21, %22, !dbg !164
  br i1 %23, label %17, label %24, !dbg !164

24:                                               ; preds = %20
  %25 = load ptr, ptr %4, align 8, !tbaa !25, !noalias !159, !llvm.access.group !173
  %26 = load ptr, ptr %3, align 8, !tbaa !25, !noalias !159, !llvm.access.group !173
  %27 = sext i32 %21 to i64, !dbg !164
  %28 = add i32 %22, 1, !dbg !164
  %29 = sub i32 %22, %21, !dbg !164
  %30 = zext i32 %29 to i64, !dbg !164
  %31 = add nuw nsw i64 %30, 1, !dbg !164
  %32 = icmp ult i32 %29, 3, !dbg !164
  br i1 %32, label %53, label %33, !dbg !164

33:                                               ; preds = %24
  %34 = and i64 %31, 8589934588, !dbg !164
  %35 = add nsw i64 %34, %27, !dbg !164
  br label %36, !dbg !164

36:                                               ; preds = %36, %33
  %37 = phi i64 [ 0, %33 ], [ %49, %36 ]
  %38 = add i64 %37, %27, !dbg !164
  %39 = getelementptr inbounds double, ptr %25, i64 %38, !dbg !174
  %40 = getelementptr inbounds i8, ptr %39, i64 16, !dbg !174
  %41 = load <2 x double>, ptr %39, align 8, !dbg !174, !tbaa !30, !noalias !159, !llvm.access.group !173
  %42 = load <2 x double>, ptr %40, align 8, !dbg !174, !tbaa !30, !noalias !159, !llvm.access.group !173
  %43 = getelementptr inbounds double, ptr %26, i64 %38, !dbg !175
  %44 = getelementptr inbounds i8, ptr %43, i64 16, !dbg !176
  %45 = load <2 x double>, ptr %43, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  %46 = load <2 x double>, ptr %44, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  %47 = fadd <2 x double> %41, %45, !dbg !176
  %48 = fadd <2 x double> %42, %46, !dbg !176
  store <2 x double> %47, ptr %43, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  store <2 x double> %48, ptr %44, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  %49 = add nuw i64 %37, 4
  %50 = icmp eq i64 %49, %34
  br i1 %50, label %51, label %36, !llvm.loop !177

51:                                               ; preds = %36
  %52 = icmp eq i64 %31, %34, !dbg !164
  br i1 %52, label %17, label %53, !dbg !164

53:                                               ; preds = %51, %24
  %54 = phi i64 [ %27, %24 ], [ %35, %51 ]
  br label %55, !dbg !171

55:                                               ; preds = %53, %55
  %56 = phi i64 [ %62, %55 ], [ %54, %53 ]
    #dbg_value(i64 %56, !147, !DIExpression(), !153)
    #dbg_value(i64 %56, !149, !DIExpression(), !153)
  %57 = getelementptr inbounds double, ptr %25, i64 %56, !dbg !174
  %58 = load double, ptr %57, align 8, !dbg !174, !tbaa !30, !noalias !159, !llvm.access.group !173
  %59 = getelementptr inbounds double, ptr %26, i64 %56, !dbg !175
  %60 = load double, ptr %59, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  %61 = fadd double %58, %60, !dbg !176
  store double %61, ptr %59, align 8, !dbg !176, !tbaa !30, !noalias !159, !llvm.access.group !173
  %62 = add nsw i64 %56, 1, !dbg !164
    #dbg_value(i64 %62, !147, !DIExpression(), !153)
  %63 = trunc i64 %62 to i32, !dbg !164
  %64 = icmp eq i32 %28, %63, !dbg !164
  br i1 %64, label %17, label %55, !dbg !164, !llvm.loop !179

65:                                               ; preds = %17, %12
  call void @__kmpc_dispatch_deinit(ptr nonnull @6, i32 %14), !dbg !171, !noalias !159
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #2, !dbg !171, !noalias !159
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #2, !dbg !171, !noalias !159
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #2, !dbg !171, !noalias !159
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %6) #2, !dbg !171, !noalias !159
  br label %66, !dbg !171

66:                                               ; preds = %5, %65
  ret void, !dbg !162
}

; Function Attrs: nounwind uwtable
define dso_local double @sum(ptr noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !180 {
  %3 = alloca ptr, align 8, !DIAssignID !187
    #dbg_assign(i1 undef, !184, !DIExpression(), !187, ptr %3, !DIExpression(), !188)
  %4 = alloca i32, align 4, !DIAssignID !189
    #dbg_assign(i1 undef, !185, !DIExpression(), !189, ptr %4, !DIExpression(), !188)
  %5 = alloca double, align 8, !DIAssignID !190
    #dbg_assign(i1 undef, !186, !DIExpression(), !190, ptr %5, !DIExpression(), !188)
  store ptr %0, ptr %3, align 8, !tbaa !25, !DIAssignID !191
    #dbg_assign(ptr %0, !184, !DIExpression(), !191, ptr %3, !DIExpression(), !188)
  store i32 %1, ptr %4, align 4, !tbaa !33, !DIAssignID !192
    #dbg_assign(i32 %1, !185, !DIExpression(), !192, ptr %4, !DIExpression(), !188)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %5) #2, !dbg !193
  store double 0.000000e+00, ptr %5, align 8, !dbg !194, !tbaa !30, !DIAssignID !195
    #dbg_assign(double 0.000000e+00, !186, !DIExpression(), !195, ptr %5, !DIExpression(), !188)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @12, i32 3, ptr nonnull @sum.omp_outlined, ptr nonnull %4, ptr nonnull %5, ptr nonnull %3), !dbg !196
  %6 = load double, ptr %5, align 8, !dbg !197, !tbaa !30
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %5) #2, !dbg !198
  ret double %6, !dbg !199
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none) uwtable
define internal void @sum.omp_outlined_debug__.omp.reduction.reduction_func(ptr nocapture noundef readonly %0, ptr nocapture noundef readonly %1) #4 !dbg !200 {
    #dbg_value(ptr %0, !204, !DIExpression(), !207)
    #dbg_value(ptr %1, !206, !DIExpression(), !207)
  %3 = load ptr, ptr %1, align 8, !dbg !208
  %4 = load ptr, ptr %0, align 8, !dbg !208
  %5 = load double, ptr %4, align 8, !dbg !209, !tbaa !30
  %6 = load double, ptr %3, align 8, !dbg !209, !tbaa !30
  %7 = fadd double %5, %6, !dbg !210
  store double %7, ptr %4, align 8, !dbg !210, !tbaa !30
  ret void, !dbg !209
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr) local_unnamed_addr #5

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr) local_unnamed_addr #5

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @sum.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %2, ptr nocapture noundef nonnull align 8 dereferenceable(8) %3, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %4) #3 !dbg !211 {
  %6 = alloca i32, align 4, !DIAssignID !220
    #dbg_assign(i1 undef, !221, !DIExpression(), !220, ptr %6, !DIExpression(), !236)
  %7 = alloca i32, align 4, !DIAssignID !238
    #dbg_assign(i1 undef, !232, !DIExpression(), !238, ptr %7, !DIExpression(), !236)
  %8 = alloca i32, align 4, !DIAssignID !239
    #dbg_assign(i1 undef, !233, !DIExpression(), !239, ptr %8, !DIExpression(), !236)
  %9 = alloca i32, align 4, !DIAssignID !240
    #dbg_assign(i1 undef, !234, !DIExpression(), !240, ptr %9, !DIExpression(), !236)
  %10 = alloca double, align 8, !DIAssignID !241
    #dbg_assign(i1 undef, !235, !DIExpression(), !241, ptr %10, !DIExpression(), !236)
  %11 = alloca [1 x ptr], align 8
    #dbg_value(ptr %0, !215, !DIExpression(), !242)
    #dbg_value(ptr poison, !216, !DIExpression(), !242)
    #dbg_value(ptr %2, !217, !DIExpression(), !242)
    #dbg_value(ptr %3, !218, !DIExpression(), !242)
    #dbg_value(ptr %4, !219, !DIExpression(), !242)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !243), !dbg !246
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %11), !dbg !247
    #dbg_value(ptr %0, !224, !DIExpression(), !236)
    #dbg_value(ptr poison, !225, !DIExpression(), !236)
    #dbg_value(ptr %2, !226, !DIExpression(), !236)
    #dbg_value(ptr %3, !227, !DIExpression(), !236)
    #dbg_value(ptr %4, !228, !DIExpression(), !236)
  %12 = load i32, ptr %2, align 4, !dbg !247, !tbaa !33, !noalias !243
    #dbg_value(i32 %12, !230, !DIExpression(), !236)
    #dbg_value(i32 %12, !230, !DIExpression(DW_OP_constu, 1, DW_OP_minus, DW_OP_stack_value), !236)
    #dbg_value(i32 0, !231, !DIExpression(), !236)
  %13 = icmp sgt i32 %12, 0, !dbg !248
  br i1 %13, label %14, label %76, !dbg !248

14:                                               ; preds = %5
  %15 = add nsw i32 %12, -1, !dbg !248
    #dbg_value(i32 %15, !230, !DIExpression(), !236)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %6) #2, !dbg !248, !noalias !243
  store i32 0, ptr %6, align 4, !dbg !249, !tbaa !33, !noalias !243, !DIAssignID !250
    #dbg_assign(i32 0, !221, !DIExpression(), !250, ptr %6, !DIExpression(), !236)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %7) #2, !dbg !248, !noalias !243
  store i32 %15, ptr %7, align 4, !dbg !249, !tbaa !33, !noalias !243, !DIAssignID !251
    #dbg_assign(i32 %15, !232, !DIExpression(), !251, ptr %7, !DIExpression(), !236)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8) #2, !dbg !248, !noalias !243
  store i32 1, ptr %8, align 4, !dbg !249, !tbaa !33, !noalias !243, !DIAssignID !252
    #dbg_assign(i32 1, !233, !DIExpression(), !252, ptr %8, !DIExpression(), !236)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %9) #2, !dbg !248, !noalias !243
  store i32 0, ptr %9, align 4, !dbg !249, !tbaa !33, !noalias !243, !DIAssignID !253
    #dbg_assign(i32 0, !234, !DIExpression(), !253, ptr %9, !DIExpression(), !236)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %10) #2, !dbg !248, !noalias !243
  store double 0.000000e+00, ptr %10, align 8, !dbg !254, !tbaa !30, !noalias !243, !DIAssignID !255
    #dbg_assign(double 0.000000e+00, !235, !DIExpression(), !255, ptr %10, !DIExpression(), !236)
  %16 = load i32, ptr %0, align 4, !dbg !248, !tbaa !33, !alias.scope !243
  call void @__kmpc_for_static_init_4(ptr nonnull @8, i32 %16, i32 34, ptr nonnull %9, ptr nonnull %6, ptr nonnull %7, ptr nonnull %8, i32 1, i32 1), !dbg !256, !noalias !243
  %17 = load i32, ptr %7, align 4, !dbg !249, !noalias !243
  %18 = call i32 @llvm.smin.i32(i32 %17, i32 %15), !dbg !249
  store i32 %18, ptr %7, align 4, !dbg !249, !tbaa !33, !noalias !243, !DIAssignID !257
    #dbg_assign(i32 %18, !232, !DIExpression(), !257, ptr %7, !DIExpression(), !236)
  %19 = load i32, ptr %6, align 4, !dbg !249, !tbaa !33, !noalias !243
    #dbg_value(i32 %19, !229, !DIExpression(), !236)
    #dbg_value(i32 %19, !229, !DIExpression(), !236)
  %20 = icmp sgt i32 %19, %18, !dbg !248
  br i1 %20, label %66, label %21, !dbg !248

21:                                               ; preds = %14
  %22 = load ptr, ptr %4, align 8, !tbaa !25, !noalias !243
  %23 = sext i32 %19 to i64, !dbg !248
  %24 = add nsw i32 %18, 1, !dbg !248
  %25 = add i32 %18, 1, !dbg !248
  %26 = sub i32 %25, %19, !dbg !248
  %27 = sub i32 %18, %19, !dbg !248
  %28 = and i32 %26, 3, !dbg !248
  %29 = icmp eq i32 %28, 0, !dbg !248
  br i1 %29, label %40, label %30, !dbg !248

30:                                               ; preds = %21, %30
  %31 = phi i64 [ %37, %30 ], [ %23, %21 ]
  %32 = phi double [ %36, %30 ], [ 0.000000e+00, %21 ]
  %33 = phi i32 [ %38, %30 ], [ 0, %21 ]
    #dbg_value(i64 %31, !229, !DIExpression(), !236)
    #dbg_value(i64 %31, !231, !DIExpression(), !236)
  %34 = getelementptr inbounds double, ptr %22, i64 %31, !dbg !258
  %35 = load double, ptr %34, align 8, !dbg !258, !tbaa !30, !noalias !243
  %36 = fadd double %35, %32, !dbg !259
  store double %36, ptr %10, align 8, !dbg !259, !tbaa !30, !noalias !243, !DIAssignID !260
    #dbg_assign(double %36, !235, !DIExpression(), !260, ptr %10, !DIExpression(), !236)
  %37 = add nsw i64 %31, 1, !dbg !248
    #dbg_value(i64 %37, !229, !DIExpression(), !236)
  %38 = add i32 %33, 1, !dbg !248
  %39 = icmp eq i32 %38, %28, !dbg !248
  br i1 %39, label %40, label %30, !dbg !248, !llvm.loop !261

40:                                               ; preds = %30, %21
  %41 = phi i64 [ %23, %21 ], [ %37, %30 ]
  %42 = phi double [ 0.000000e+00, %21 ], [ %36, %30 ]
  %43 = icmp ult i32 %27, 3, !dbg !248
  br i1 %43, label %66, label %44, !dbg !248

44:                                               ; preds = %40
  %45 = getelementptr i8, ptr %22, i64 8, !dbg !248
  %46 = getelementptr i8, ptr %22, i64 16, !dbg !248
  %47 = getelementptr i8, ptr %22, i64 24, !dbg !248
  br label %48, !dbg !248

48:                                               ; preds = %48, %44
  %49 = phi i64 [ %41, %44 ], [ %63, %48 ]
  %50 = phi double [ %42, %44 ], [ %62, %48 ]
    #dbg_value(i64 %49, !229, !DIExpression(), !236)
    #dbg_value(i64 %49, !231, !DIExpression(), !236)
  %51 = getelementptr inbounds double, ptr %22, i64 %49, !dbg !258
  %52 = load double, ptr %51, align 8, !dbg !258, !tbaa !30, !noalias !243
  %53 = fadd double %52, %50, !dbg !259
  store double %53, ptr %10, align 8, !dbg !259, !tbaa !30, !noalias !243, !DIAssignID !260
    #dbg_assign(double %53, !235, !DIExpression(), !260, ptr %10, !DIExpression(), !236)
    #dbg_value(i64 %49, !229, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !236)
    #dbg_value(i64 %49, !231, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !236)
  %54 = getelementptr double, ptr %45, i64 %49, !dbg !258
  %55 = load double, ptr %54, align 8, !dbg !258, !tbaa !30, !noalias !243
  %56 = fadd double %55, %53, !dbg !259
  store double %56, ptr %10, align 8, !dbg !259, !tbaa !30, !noalias !243, !DIAssignID !260
    #dbg_assign(double %56, !235, !DIExpression(), !260, ptr %10, !DIExpression(), !236)
    #dbg_value(i64 %49, !229, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !236)
    #dbg_value(i64 %49, !231, !DIExpression(DW_OP_plus_uconst, 2, DW_OP_stack_value), !236)
  %57 = getelementptr double, ptr %46, i64 %49, !dbg !258
  %58 = load double, ptr %57, align 8, !dbg !258, !tbaa !30, !noalias !243
  %59 = fadd double %58, %56, !dbg !259
  store double %59, ptr %10, align 8, !dbg !259, !tbaa !30, !noalias !243, !DIAssignID !260
    #dbg_assign(double %59, !235, !DIExpression(), !260, ptr %10, !DIExpression(), !236)
    #dbg_value(i64 %49, !229, !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value), !236)
    #dbg_value(i64 %49, !231, !DIExpression(DW_OP_plus_uconst, 3, DW_OP_stack_value), !236)
  %60 = getelementptr double, ptr %47, i64 %49, !dbg !258
  %61 = load double, ptr %60, align 8, !dbg !258, !tbaa !30, !noalias !243
  %62 = fadd double %61, %59, !dbg !259
  store double %62, ptr %10, align 8, !dbg !259, !tbaa !30, !noalias !243, !DIAssignID !260
    #dbg_assign(double %62, !235, !DIExpression(), !260, ptr %10, !DIExpression(), !236)
  %63 = add nsw i64 %49, 4, !dbg !248
    #dbg_value(i64 %63, !229, !DIExpression(), !236)
  %64 = trunc i64 %63 to i32, !dbg !248
  %65 = icmp eq i32 %24, %64, !dbg !248
  br i1 %65, label %66, label %48, !dbg !248, !llvm.loop !262

66:                                               ; preds = %40, %48, %14
  call void @__kmpc_for_static_fini(ptr nonnull @10, i32 %16), !dbg !263, !noalias !243
  store ptr %10, ptr %11, align 8, !dbg !256, !noalias !243
  %67 = call i32 @__kmpc_reduce_nowait(ptr nonnull @11, i32 %16, i32 1, i64 8, ptr nonnull %11, ptr nonnull @sum.omp_outlined_debug__.omp.reduction.reduction_func, ptr nonnull @.gomp_critical_user_.reduction.var), !dbg !256, !noalias !243
  switch i32 %67, label %75 [
    i32 1, label %68
    i32 2, label %72
  ], !dbg !256

68:                                               ; preds = %66
  %69 = load double, ptr %3, align 8, !dbg !254, !tbaa !30, !noalias !243
  %70 = load double, ptr %10, align 8, !dbg !254, !tbaa !30, !noalias !243
  %71 = fadd double %69, %70, !dbg !264
  store double %71, ptr %3, align 8, !dbg !264, !tbaa !30, !noalias !243
  call void @__kmpc_end_reduce_nowait(ptr nonnull @11, i32 %16, ptr nonnull @.gomp_critical_user_.reduction.var), !dbg !256, !noalias !243
  br label %75, !dbg !256

72:                                               ; preds = %66
  %73 = load double, ptr %10, align 8, !dbg !254, !tbaa !30, !noalias !243
  %74 = atomicrmw fadd ptr %3, double %73 monotonic, align 8, !dbg !256, !noalias !243
  br label %75, !dbg !256

75:                                               ; preds = %72, %68, %66
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %10) #2, !dbg !256, !noalias !243
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %9) #2, !dbg !256, !noalias !243
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8) #2, !dbg !256, !noalias !243
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %7) #2, !dbg !256, !noalias !243
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %6) #2, !dbg !256, !noalias !243
  br label %76, !dbg !256

76:                                               ; preds = %5, %75
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %11), !dbg !265
  ret void, !dbg !246
}

; Function Attrs: nounwind uwtable
define dso_local void @phases(ptr noundef %0, i32 noundef %1) local_unnamed_addr #0 !dbg !266 {
  %3 = alloca ptr, align 8, !DIAssignID !273
    #dbg_assign(i1 undef, !271, !DIExpression(), !273, ptr %3, !DIExpression(), !274)
  %4 = alloca i32, align 4, !DIAssignID !275
    #dbg_assign(i1 undef, !272, !DIExpression(), !275, ptr %4, !DIExpression(), !274)
  store ptr %0, ptr %3, align 8, !tbaa !25, !DIAssignID !276
    #dbg_assign(ptr %0, !271, !DIExpression(), !276, ptr %3, !DIExpression(), !274)
  store i32 %1, ptr %4, align 4, !tbaa !33, !DIAssignID !277
    #dbg_assign(i32 %1, !272, !DIExpression(), !277, ptr %4, !DIExpression(), !274)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @16, i32 2, ptr nonnull @phases.omp_outlined, ptr nonnull %3, ptr nonnull %4), !dbg !278
  ret void, !dbg !279
}

; Function Attrs: nounwind
declare !dbg !280 i32 @omp_get_thread_num() local_unnamed_addr #6

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) local_unnamed_addr #5

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @phases.omp_outlined(ptr noalias nocapture noundef readonly %0, ptr noalias nocapture readnone %1, ptr nocapture noundef nonnull readonly align 8 dereferenceable(8) %2, ptr nocapture noundef nonnull readonly align 4 dereferenceable(4) %3) #3 !dbg !284 {
    #dbg_value(ptr %0, !289, !DIExpression(), !293)
    #dbg_value(ptr poison, !290, !DIExpression(), !293)
    #dbg_value(ptr %2, !291, !DIExpression(), !293)
    #dbg_value(ptr %3, !292, !DIExpression(), !293)
  tail call void @llvm.experimental.noalias.scope.decl(metadata !294), !dbg !297
    #dbg_value(ptr %0, !298, !DIExpression(), !306)
    #dbg_value(ptr poison, !301, !DIExpression(), !306)
    #dbg_value(ptr %2, !302, !DIExpression(), !306)
    #dbg_value(ptr %3, !303, !DIExpression(), !306)
  %5 = tail call i32 @omp_get_thread_num(), !dbg !308, !noalias !294
    #dbg_value(i32 %5, !304, !DIExpression(), !309)
  %6 = load ptr, ptr %2, align 8, !dbg !310, !tbaa !25, !noalias !294
  %7 = srem i32 %5, 4, !dbg !312
  %8 = sext i32 %7 to i64, !dbg !310
  %9 = getelementptr inbounds i32, ptr %6, i64 %8, !dbg !310
  %10 = load i32, ptr %3, align 4, !dbg !313, !tbaa !33, !noalias !294
  %11 = atomicrmw add ptr %9, i32 %10 monotonic, align 4, !dbg !310, !noalias !294
  %12 = load i32, ptr %0, align 4, !dbg !314, !tbaa !33, !alias.scope !294
  tail call void @__kmpc_barrier(ptr nonnull @14, i32 %12), !dbg !314, !noalias !294
  %13 = load ptr, ptr %2, align 8, !dbg !315, !tbaa !25, !noalias !294
  %14 = atomicrmw add ptr %13, i32 %5 monotonic, align 4, !dbg !315, !noalias !294
  ret void, !dbg !297
}

; Function Attrs: nounwind uwtable
define dso_local range(i32 0, 2) i32 @main() local_unnamed_addr #0 !dbg !317 {
  %1 = alloca ptr, align 8, !DIAssignID !328
    #dbg_assign(i1 undef, !271, !DIExpression(), !328, ptr %1, !DIExpression(), !329)
  %2 = alloca i32, align 4, !DIAssignID !331
  %3 = alloca ptr, align 8, !DIAssignID !332
    #dbg_assign(i1 undef, !184, !DIExpression(), !332, ptr %3, !DIExpression(), !333)
  %4 = alloca i32, align 4, !DIAssignID !335
    #dbg_assign(i1 undef, !185, !DIExpression(), !335, ptr %4, !DIExpression(), !333)
  %5 = alloca double, align 8, !DIAssignID !336
  %6 = alloca ptr, align 8, !DIAssignID !337
    #dbg_assign(i1 undef, !116, !DIExpression(), !337, ptr %6, !DIExpression(), !338)
  %7 = alloca ptr, align 8, !DIAssignID !340
    #dbg_assign(i1 undef, !117, !DIExpression(), !340, ptr %7, !DIExpression(), !338)
  %8 = alloca i32, align 4, !DIAssignID !341
  %9 = alloca ptr, align 8, !DIAssignID !342
    #dbg_assign(i1 undef, !18, !DIExpression(), !342, ptr %9, !DIExpression(), !343)
  %10 = alloca double, align 8, !DIAssignID !345
    #dbg_assign(i1 undef, !19, !DIExpression(), !345, ptr %10, !DIExpression(), !343)
  %11 = alloca i32, align 4, !DIAssignID !346
  %12 = alloca [4 x i32], align 16, !DIAssignID !347
    #dbg_assign(i1 undef, !324, !DIExpression(), !347, ptr %12, !DIExpression(), !348)
  %13 = tail call noalias dereferenceable_or_null(8000) ptr @malloc(i64 noundef 8000) #13, !dbg !349
    #dbg_value(ptr %13, !319, !DIExpression(), !348)
  %14 = tail call noalias dereferenceable_or_null(8000) ptr @calloc(i64 noundef 1000, i64 noundef 8) #14, !dbg !350
    #dbg_value(ptr %14, !320, !DIExpression(), !348)
    #dbg_value(i32 0, !321, !DIExpression(), !351)
  br label %15, !dbg !352

15:                                               ; preds = %15, %0
  %16 = phi i64 [ 0, %0 ], [ %30, %15 ], !dbg !353
  %17 = phi <2 x i32> [ <i32 0, i32 1>, %0 ], [ %31, %15 ], !dbg !355
  %18 = add <2 x i32> %17, <i32 2, i32 2>, !dbg !355
  %19 = uitofp <2 x i32> %17 to <2 x double>, !dbg !355
  %20 = uitofp <2 x i32> %18 to <2 x double>, !dbg !355
  %21 = getelementptr inbounds double, ptr %13, i64 %16, !dbg !356
  %22 = getelementptr inbounds i8, ptr %21, i64 16, !dbg !357
  store <2 x double> %19, ptr %21, align 8, !dbg !357, !tbaa !30
  store <2 x double> %20, ptr %22, align 8, !dbg !357, !tbaa !30
  %23 = or disjoint i64 %16, 4, !dbg !353
  %24 = add <2 x i32> %17, <i32 4, i32 4>, !dbg !355
  %25 = add <2 x i32> %17, <i32 6, i32 6>, !dbg !355
  %26 = uitofp <2 x i32> %24 to <2 x double>, !dbg !355
  %27 = uitofp <2 x i32> %25 to <2 x double>, !dbg !355
  %28 = getelementptr inbounds double, ptr %13, i64 %23, !dbg !356
  %29 = getelementptr inbounds i8, ptr %28, i64 16, !dbg !357
  store <2 x double> %26, ptr %28, align 8, !dbg !357, !tbaa !30
  store <2 x double> %27, ptr %29, align 8, !dbg !357, !tbaa !30
  %30 = add nuw nsw i64 %16, 8, !dbg !353
  %31 = add <2 x i32> %17, <i32 8, i32 8>, !dbg !355
  %32 = icmp eq i64 %30, 1000, !dbg !353
  br i1 %32, label %33, label %15, !dbg !353, !llvm.loop !358

33:                                               ; preds = %15
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %9)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %10)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %11)
    #dbg_assign(i1 undef, !20, !DIExpression(), !346, ptr %11, !DIExpression(), !343)
  store ptr %13, ptr %9, align 8, !tbaa !25, !DIAssignID !361
    #dbg_assign(ptr %13, !18, !DIExpression(), !361, ptr %9, !DIExpression(), !343)
  store double 2.000000e+00, ptr %10, align 8, !tbaa !30, !DIAssignID !362
    #dbg_assign(double 2.000000e+00, !19, !DIExpression(), !362, ptr %10, !DIExpression(), !343)
  store i32 1000, ptr %11, align 4, !tbaa !33, !DIAssignID !363
    #dbg_assign(i32 1000, !20, !DIExpression(), !363, ptr %11, !DIExpression(), !343)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @4, i32 3, ptr nonnull @scale.omp_outlined, ptr nonnull %11, ptr nonnull %9, ptr nonnull %10), !dbg !364
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %9), !dbg !365
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %10), !dbg !365
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %11), !dbg !365
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %6)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %7)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %8)
    #dbg_assign(i1 undef, !118, !DIExpression(), !341, ptr %8, !DIExpression(), !338)
  store ptr %13, ptr %6, align 8, !tbaa !25, !DIAssignID !366
    #dbg_assign(ptr %13, !116, !DIExpression(), !366, ptr %6, !DIExpression(), !338)
  store ptr %14, ptr %7, align 8, !tbaa !25, !DIAssignID !367
    #dbg_assign(ptr %14, !117, !DIExpression(), !367, ptr %7, !DIExpression(), !338)
  store i32 1000, ptr %8, align 4, !tbaa !33, !DIAssignID !368
    #dbg_assign(i32 1000, !118, !DIExpression(), !368, ptr %8, !DIExpression(), !338)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @6, i32 3, ptr nonnull @dyn.omp_outlined, ptr nonnull %8, ptr nonnull %6, ptr nonnull %7), !dbg !369
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %6), !dbg !370
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %7), !dbg !370
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %8), !dbg !370
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %3)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %4)
    #dbg_assign(i1 undef, !186, !DIExpression(), !336, ptr %5, !DIExpression(), !333)
  store ptr %13, ptr %3, align 8, !tbaa !25, !DIAssignID !371
    #dbg_assign(ptr %13, !184, !DIExpression(), !371, ptr %3, !DIExpression(), !333)
  store i32 1000, ptr %4, align 4, !tbaa !33, !DIAssignID !372
    #dbg_assign(i32 1000, !185, !DIExpression(), !372, ptr %4, !DIExpression(), !333)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %5) #2, !dbg !373
  store double 0.000000e+00, ptr %5, align 8, !dbg !374, !tbaa !30, !DIAssignID !375
    #dbg_assign(double 0.000000e+00, !186, !DIExpression(), !375, ptr %5, !DIExpression(), !333)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @12, i32 3, ptr nonnull @sum.omp_outlined, ptr nonnull %4, ptr nonnull %5, ptr nonnull %3), !dbg !376
  %34 = load double, ptr %5, align 8, !dbg !377, !tbaa !30
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %5) #2, !dbg !378
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %3), !dbg !379
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %4), !dbg !379
    #dbg_value(double %34, !323, !DIExpression(), !348)
  call void @llvm.lifetime.start.p0(i64 16, ptr nonnull %12) #2, !dbg !380
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %12, i8 0, i64 16, i1 false), !dbg !381, !DIAssignID !382
    #dbg_assign(i8 0, !324, !DIExpression(), !382, ptr %12, !DIExpression(), !348)
  call void @llvm.lifetime.start.p0(i64 8, ptr nonnull %1)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %2)
    #dbg_assign(i1 undef, !272, !DIExpression(), !331, ptr %2, !DIExpression(), !329)
  store ptr %12, ptr %1, align 8, !tbaa !25, !DIAssignID !383
    #dbg_assign(ptr %12, !271, !DIExpression(), !383, ptr %1, !DIExpression(), !329)
  store i32 3, ptr %2, align 4, !tbaa !33, !DIAssignID !384
    #dbg_assign(i32 3, !272, !DIExpression(), !384, ptr %2, !DIExpression(), !329)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr nonnull @16, i32 2, ptr nonnull @phases.omp_outlined, ptr nonnull %1, ptr nonnull %2), !dbg !385
  call void @llvm.lifetime.end.p0(i64 8, ptr nonnull %1), !dbg !386
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %2), !dbg !386
  call void @free(ptr noundef nonnull %13) #2, !dbg !387
  call void @free(ptr noundef %14) #2, !dbg !388
  %35 = fcmp ule double %34, 0.000000e+00, !dbg !389
  %36 = zext i1 %35 to i32, !dbg !390
  call void @llvm.lifetime.end.p0(i64 16, ptr nonnull %12) #2, !dbg !391
  ret i32 %36, !dbg !392
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare !dbg !393 noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #7

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite)
declare !dbg !400 noalias noundef ptr @calloc(i64 noundef, i64 noundef) local_unnamed_addr #8

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #9

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare !dbg !403 void @free(ptr allocptr nocapture noundef) local_unnamed_addr #10

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #11

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #12

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nounwind }
attributes #3 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { convergent nounwind }
attributes #6 = { nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #10 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #11 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #12 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #13 = { nounwind allocsize(0) }
attributes #14 = { nounwind allocsize(0,1) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "omp_loops.c", directory: "/work/main/pass/tests/ir", checksumkind: CSK_MD5, checksum: "ea4b0495707fb61ef2432fe4bca07463")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"openmp", i32 51}
!6 = !{i32 8, !"PIC Level", i32 2}
!7 = !{i32 7, !"PIE Level", i32 2}
!8 = !{i32 7, !"uwtable", i32 2}
!9 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!10 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!11 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 10, type: !12, scopeLine: 10, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !17)
!12 = !DISubroutineType(types: !13)
!13 = !{null, !14, !15, !16}
!14 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!15 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !{!18, !19, !20}
!18 = !DILocalVariable(name: "a", arg: 1, scope: !11, file: !1, line: 10, type: !14)
!19 = !DILocalVariable(name: "f", arg: 2, scope: !11, file: !1, line: 10, type: !15)
!20 = !DILocalVariable(name: "n", arg: 3, scope: !11, file: !1, line: 10, type: !16)
!21 = distinct !DIAssignID()
!22 = !DILocation(line: 0, scope: !11)
!23 = distinct !DIAssignID()
!24 = distinct !DIAssignID()
!25 = !{!26, !26, i64 0}
!26 = !{!"any pointer", !27, i64 0}
!27 = !{!"omnipotent char", !28, i64 0}
!28 = !{!"Simple C/C++ TBAA"}
!29 = distinct !DIAssignID()
!30 = !{!31, !31, i64 0}
!31 = !{!"double", !27, i64 0}
!32 = distinct !DIAssignID()
!33 = !{!34, !34, i64 0}
!34 = !{!"int", !27, i64 0}
!35 = distinct !DIAssignID()
!36 = !DILocation(line: 11, column: 1, scope: !11)
!37 = !DILocation(line: 16, column: 1, scope: !11)
!38 = distinct !DISubprogram(name: "scale.omp_outlined", scope: !1, file: !1, line: 11, type: !39, scopeLine: 11, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !48)
!39 = !DISubroutineType(types: !40)
!40 = !{null, !41, !41, !45, !46, !47}
!41 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !42)
!42 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !43)
!43 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !44, size: 64)
!44 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !16)
!45 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !16, size: 64)
!46 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !14, size: 64)
!47 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !15, size: 64)
!48 = !{!49, !50, !51, !52, !53}
!49 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !38, type: !41, flags: DIFlagArtificial)
!50 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !38, type: !41, flags: DIFlagArtificial)
!51 = !DILocalVariable(name: "n", arg: 3, scope: !38, type: !45, flags: DIFlagArtificial)
!52 = !DILocalVariable(name: "a", arg: 4, scope: !38, type: !46, flags: DIFlagArtificial)
!53 = !DILocalVariable(name: "f", arg: 5, scope: !38, type: !47, flags: DIFlagArtificial)
!54 = distinct !DIAssignID()
!55 = !DILocalVariable(name: ".omp.lb", scope: !56, type: !16, flags: DIFlagArtificial)
!56 = distinct !DISubprogram(name: "scale.omp_outlined_debug__", scope: !1, file: !1, line: 12, type: !39, scopeLine: 12, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !57)
!57 = !{!58, !59, !60, !61, !62, !63, !64, !64, !65, !55, !66, !67, !68, !65, !69}
!58 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !56, type: !41, flags: DIFlagArtificial)
!59 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !56, type: !41, flags: DIFlagArtificial)
!60 = !DILocalVariable(name: "n", arg: 3, scope: !56, file: !1, line: 10, type: !45)
!61 = !DILocalVariable(name: "a", arg: 4, scope: !56, file: !1, line: 10, type: !46)
!62 = !DILocalVariable(name: "f", arg: 5, scope: !56, file: !1, line: 10, type: !47)
!63 = !DILocalVariable(name: ".omp.iv", scope: !56, type: !16, flags: DIFlagArtificial)
!64 = !DILocalVariable(name: ".capture_expr.", scope: !56, type: !16, flags: DIFlagArtificial)
!65 = !DILocalVariable(name: "i", scope: !56, type: !16, flags: DIFlagArtificial)
!66 = !DILocalVariable(name: ".omp.ub", scope: !56, type: !16, flags: DIFlagArtificial)
!67 = !DILocalVariable(name: ".omp.stride", scope: !56, type: !16, flags: DIFlagArtificial)
!68 = !DILocalVariable(name: ".omp.is_last", scope: !56, type: !16, flags: DIFlagArtificial)
!69 = !DILocalVariable(name: "t", scope: !70, file: !1, line: 13, type: !15)
!70 = distinct !DILexicalBlock(scope: !56, file: !1, line: 12, column: 31)
!71 = !DILocation(line: 0, scope: !56, inlinedAt: !72)
!72 = distinct !DILocation(line: 11, column: 1, scope: !38)
!73 = distinct !DIAssignID()
!74 = distinct !DIAssignID()
!75 = distinct !DIAssignID()
!76 = !DILocation(line: 0, scope: !38)
!77 = !{!78}
!78 = distinct !{!78, !79, !"scale.omp_outlined_debug__: argument 0"}
!79 = distinct !{!79, !"scale.omp_outlined_debug__"}
!80 = !DILocation(line: 11, column: 1, scope: !38)
!81 = !DILocation(line: 12, column: 23, scope: !56, inlinedAt: !72)
!82 = !DILocation(line: 12, column: 3, scope: !56, inlinedAt: !72)
!83 = !DILocation(line: 12, column: 8, scope: !56, inlinedAt: !72)
!84 = distinct !DIAssignID()
!85 = distinct !DIAssignID()
!86 = distinct !DIAssignID()
!87 = distinct !DIAssignID()
!88 = !DILocation(line: 11, column: 1, scope: !56, inlinedAt: !72)
!89 = distinct !DIAssignID()
!90 = !{!91}
!91 = distinct !{!91, !92}
!92 = distinct !{!92, !"LVerDomain"}
!93 = !DILocation(line: 13, column: 16, scope: !70, inlinedAt: !72)
!94 = !{!95}
!95 = distinct !{!95, !92}
!96 = !{!78, !91}
!97 = !DILocation(line: 14, column: 10, scope: !70, inlinedAt: !72)
!98 = distinct !{!98, !88, !99, !100, !101}
!99 = !DILocation(line: 11, column: 42, scope: !56, inlinedAt: !72)
!100 = !{!"llvm.loop.isvectorized", i32 1}
!101 = !{!"llvm.loop.unroll.runtime.disable"}
!102 = !DILocation(line: 13, column: 23, scope: !70, inlinedAt: !72)
!103 = !DILocation(line: 13, column: 21, scope: !70, inlinedAt: !72)
!104 = !DILocation(line: 0, scope: !70, inlinedAt: !72)
!105 = distinct !{!105, !106}
!106 = !{!"llvm.loop.unroll.disable"}
!107 = distinct !{!107, !88, !99, !100}
!108 = !{!109}
!109 = !{i64 2, i64 -1, i64 -1, i1 true}
!110 = distinct !DISubprogram(name: "dyn", scope: !1, file: !1, line: 18, type: !111, scopeLine: 18, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !115)
!111 = !DISubroutineType(types: !112)
!112 = !{null, !14, !113, !16}
!113 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !114, size: 64)
!114 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !15)
!115 = !{!116, !117, !118}
!116 = !DILocalVariable(name: "a", arg: 1, scope: !110, file: !1, line: 18, type: !14)
!117 = !DILocalVariable(name: "b", arg: 2, scope: !110, file: !1, line: 18, type: !113)
!118 = !DILocalVariable(name: "n", arg: 3, scope: !110, file: !1, line: 18, type: !16)
!119 = distinct !DIAssignID()
!120 = !DILocation(line: 0, scope: !110)
!121 = distinct !DIAssignID()
!122 = distinct !DIAssignID()
!123 = distinct !DIAssignID()
!124 = distinct !DIAssignID()
!125 = distinct !DIAssignID()
!126 = !DILocation(line: 19, column: 1, scope: !110)
!127 = !DILocation(line: 22, column: 1, scope: !110)
!128 = distinct !DISubprogram(name: "dyn.omp_outlined", scope: !1, file: !1, line: 19, type: !129, scopeLine: 19, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !132)
!129 = !DISubroutineType(types: !130)
!130 = !{null, !41, !41, !45, !46, !131}
!131 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !113, size: 64)
!132 = !{!133, !134, !135, !136, !137}
!133 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !128, type: !41, flags: DIFlagArtificial)
!134 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !128, type: !41, flags: DIFlagArtificial)
!135 = !DILocalVariable(name: "n", arg: 3, scope: !128, type: !45, flags: DIFlagArtificial)
!136 = !DILocalVariable(name: "a", arg: 4, scope: !128, type: !46, flags: DIFlagArtificial)
!137 = !DILocalVariable(name: "b", arg: 5, scope: !128, type: !131, flags: DIFlagArtificial)
!138 = distinct !DIAssignID()
!139 = !DILocalVariable(name: ".omp.lb", scope: !140, type: !16, flags: DIFlagArtificial)
!140 = distinct !DISubprogram(name: "dyn.omp_outlined_debug__", scope: !1, file: !1, line: 20, type: !129, scopeLine: 20, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !141)
!141 = !{!142, !143, !144, !145, !146, !147, !148, !148, !149, !139, !150, !151, !152, !149}
!142 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !140, type: !41, flags: DIFlagArtificial)
!143 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !140, type: !41, flags: DIFlagArtificial)
!144 = !DILocalVariable(name: "n", arg: 3, scope: !140, file: !1, line: 18, type: !45)
!145 = !DILocalVariable(name: "a", arg: 4, scope: !140, file: !1, line: 18, type: !46)
!146 = !DILocalVariable(name: "b", arg: 5, scope: !140, file: !1, line: 18, type: !131)
!147 = !DILocalVariable(name: ".omp.iv", scope: !140, type: !16, flags: DIFlagArtificial)
!148 = !DILocalVariable(name: ".capture_expr.", scope: !140, type: !16, flags: DIFlagArtificial)
!149 = !DILocalVariable(name: "i", scope: !140, type: !16, flags: DIFlagArtificial)
!150 = !DILocalVariable(name: ".omp.ub", scope: !140, type: !16, flags: DIFlagArtificial)
!151 = !DILocalVariable(name: ".omp.stride", scope: !140, type: !16, flags: DIFlagArtificial)
!152 = !DILocalVariable(name: ".omp.is_last", scope: !140, type: !16, flags: DIFlagArtificial)
!153 = !DILocation(line: 0, scope: !140, inlinedAt: !154)
!154 = distinct !DILocation(line: 19, column: 1, scope: !128)
!155 = distinct !DIAssignID()
!156 = distinct !DIAssignID()
!157 = distinct !DIAssignID()
!158 = !DILocation(line: 0, scope: !128)
!159 = !{!160}
!160 = distinct !{!160, !161, !"dyn.omp_outlined_debug__: argument 0"}
!161 = distinct !{!161, !"dyn.omp_outlined_debug__"}
!162 = !DILocation(line: 19, column: 1, scope: !128)
!163 = !DILocation(line: 20, column: 23, scope: !140, inlinedAt: !154)
!164 = !DILocation(line: 20, column: 3, scope: !140, inlinedAt: !154)
!165 = !DILocation(line: 20, column: 8, scope: !140, inlinedAt: !154)
!166 = distinct !DIAssignID()
!167 = distinct !DIAssignID()
!168 = distinct !DIAssignID()
!169 = distinct !DIAssignID()
!170 = distinct !{!170, !171, !172}
!171 = !DILocation(line: 19, column: 1, scope: !140, inlinedAt: !154)
!172 = !DILocation(line: 19, column: 46, scope: !140, inlinedAt: !154)
!173 = distinct !{}
!174 = !DILocation(line: 21, column: 13, scope: !140, inlinedAt: !154)
!175 = !DILocation(line: 21, column: 5, scope: !140, inlinedAt: !154)
!176 = !DILocation(line: 21, column: 10, scope: !140, inlinedAt: !154)
!177 = distinct !{!177, !171, !172, !178, !100, !101}
!178 = !{!"llvm.loop.parallel_accesses", !173}
!179 = distinct !{!179, !171, !172, !178, !101, !100}
!180 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 24, type: !181, scopeLine: 24, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !183)
!181 = !DISubroutineType(types: !182)
!182 = !{!15, !113, !16}
!183 = !{!184, !185, !186}
!184 = !DILocalVariable(name: "a", arg: 1, scope: !180, file: !1, line: 24, type: !113)
!185 = !DILocalVariable(name: "n", arg: 2, scope: !180, file: !1, line: 24, type: !16)
!186 = !DILocalVariable(name: "s", scope: !180, file: !1, line: 25, type: !15)
!187 = distinct !DIAssignID()
!188 = !DILocation(line: 0, scope: !180)
!189 = distinct !DIAssignID()
!190 = distinct !DIAssignID()
!191 = distinct !DIAssignID()
!192 = distinct !DIAssignID()
!193 = !DILocation(line: 25, column: 3, scope: !180)
!194 = !DILocation(line: 25, column: 10, scope: !180)
!195 = distinct !DIAssignID()
!196 = !DILocation(line: 26, column: 1, scope: !180)
!197 = !DILocation(line: 29, column: 10, scope: !180)
!198 = !DILocation(line: 30, column: 1, scope: !180)
!199 = !DILocation(line: 29, column: 3, scope: !180)
!200 = distinct !DISubprogram(linkageName: "sum.omp_outlined_debug__.omp.reduction.reduction_func", scope: !1, file: !1, line: 26, type: !201, scopeLine: 26, flags: DIFlagArtificial | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !203)
!201 = !DISubroutineType(types: !202)
!202 = !{}
!203 = !{!204, !206}
!204 = !DILocalVariable(arg: 1, scope: !200, type: !205, flags: DIFlagArtificial)
!205 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!206 = !DILocalVariable(arg: 2, scope: !200, type: !205, flags: DIFlagArtificial)
!207 = !DILocation(line: 0, scope: !200)
!208 = !DILocation(line: 26, column: 42, scope: !200)
!209 = !DILocation(line: 26, column: 40, scope: !200)
!210 = !DILocation(line: 26, column: 36, scope: !200)
!211 = distinct !DISubprogram(name: "sum.omp_outlined", scope: !1, file: !1, line: 26, type: !212, scopeLine: 26, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !214)
!212 = !DISubroutineType(types: !213)
!213 = !{null, !41, !41, !45, !47, !131}
!214 = !{!215, !216, !217, !218, !219}
!215 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !211, type: !41, flags: DIFlagArtificial)
!216 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !211, type: !41, flags: DIFlagArtificial)
!217 = !DILocalVariable(name: "n", arg: 3, scope: !211, type: !45, flags: DIFlagArtificial)
!218 = !DILocalVariable(name: "s", arg: 4, scope: !211, type: !47, flags: DIFlagArtificial)
!219 = !DILocalVariable(name: "a", arg: 5, scope: !211, type: !131, flags: DIFlagArtificial)
!220 = distinct !DIAssignID()
!221 = !DILocalVariable(name: ".omp.lb", scope: !222, type: !16, flags: DIFlagArtificial)
!222 = distinct !DISubprogram(name: "sum.omp_outlined_debug__", scope: !1, file: !1, line: 27, type: !212, scopeLine: 27, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !223)
!223 = !{!224, !225, !226, !227, !228, !229, !230, !230, !231, !221, !232, !233, !234, !235, !231}
!224 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !222, type: !41, flags: DIFlagArtificial)
!225 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !222, type: !41, flags: DIFlagArtificial)
!226 = !DILocalVariable(name: "n", arg: 3, scope: !222, file: !1, line: 24, type: !45)
!227 = !DILocalVariable(name: "s", arg: 4, scope: !222, file: !1, line: 25, type: !47)
!228 = !DILocalVariable(name: "a", arg: 5, scope: !222, file: !1, line: 24, type: !131)
!229 = !DILocalVariable(name: ".omp.iv", scope: !222, type: !16, flags: DIFlagArtificial)
!230 = !DILocalVariable(name: ".capture_expr.", scope: !222, type: !16, flags: DIFlagArtificial)
!231 = !DILocalVariable(name: "i", scope: !222, type: !16, flags: DIFlagArtificial)
!232 = !DILocalVariable(name: ".omp.ub", scope: !222, type: !16, flags: DIFlagArtificial)
!233 = !DILocalVariable(name: ".omp.stride", scope: !222, type: !16, flags: DIFlagArtificial)
!234 = !DILocalVariable(name: ".omp.is_last", scope: !222, type: !16, flags: DIFlagArtificial)
!235 = !DILocalVariable(name: "s", scope: !222, type: !15, flags: DIFlagArtificial)
!236 = !DILocation(line: 0, scope: !222, inlinedAt: !237)
!237 = distinct !DILocation(line: 26, column: 1, scope: !211)
!238 = distinct !DIAssignID()
!239 = distinct !DIAssignID()
!240 = distinct !DIAssignID()
!241 = distinct !DIAssignID()
!242 = !DILocation(line: 0, scope: !211)
!243 = !{!244}
!244 = distinct !{!244, !245, !"sum.omp_outlined_debug__: argument 0"}
!245 = distinct !{!245, !"sum.omp_outlined_debug__"}
!246 = !DILocation(line: 26, column: 1, scope: !211)
!247 = !DILocation(line: 27, column: 23, scope: !222, inlinedAt: !237)
!248 = !DILocation(line: 27, column: 3, scope: !222, inlinedAt: !237)
!249 = !DILocation(line: 27, column: 8, scope: !222, inlinedAt: !237)
!250 = distinct !DIAssignID()
!251 = distinct !DIAssignID()
!252 = distinct !DIAssignID()
!253 = distinct !DIAssignID()
!254 = !DILocation(line: 26, column: 40, scope: !222, inlinedAt: !237)
!255 = distinct !DIAssignID()
!256 = !DILocation(line: 26, column: 1, scope: !222, inlinedAt: !237)
!257 = distinct !DIAssignID()
!258 = !DILocation(line: 28, column: 10, scope: !222, inlinedAt: !237)
!259 = !DILocation(line: 28, column: 7, scope: !222, inlinedAt: !237)
!260 = distinct !DIAssignID()
!261 = distinct !{!261, !106}
!262 = distinct !{!262, !256, !263}
!263 = !DILocation(line: 26, column: 42, scope: !222, inlinedAt: !237)
!264 = !DILocation(line: 26, column: 36, scope: !222, inlinedAt: !237)
!265 = !DILocation(line: 28, column: 13, scope: !222, inlinedAt: !237)
!266 = distinct !DISubprogram(name: "phases", scope: !1, file: !1, line: 32, type: !267, scopeLine: 32, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !270)
!267 = !DISubroutineType(types: !268)
!268 = !{null, !269, !16}
!269 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !16, size: 64)
!270 = !{!271, !272}
!271 = !DILocalVariable(name: "hist", arg: 1, scope: !266, file: !1, line: 32, type: !269)
!272 = !DILocalVariable(name: "n", arg: 2, scope: !266, file: !1, line: 32, type: !16)
!273 = distinct !DIAssignID()
!274 = !DILocation(line: 0, scope: !266)
!275 = distinct !DIAssignID()
!276 = distinct !DIAssignID()
!277 = distinct !DIAssignID()
!278 = !DILocation(line: 33, column: 1, scope: !266)
!279 = !DILocation(line: 42, column: 1, scope: !266)
!280 = !DISubprogram(name: "omp_get_thread_num", scope: !281, file: !281, line: 69, type: !282, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!281 = !DIFile(filename: "/usr/lib/llvm-19/lib/clang/19/include/omp.h", directory: "", checksumkind: CSK_MD5, checksum: "7e027bf7dec42b1ebb813abf9670945f")
!282 = !DISubroutineType(types: !283)
!283 = !{!16}
!284 = distinct !DISubprogram(name: "phases.omp_outlined", scope: !1, file: !1, line: 33, type: !285, scopeLine: 33, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !288)
!285 = !DISubroutineType(types: !286)
!286 = !{null, !41, !41, !287, !45}
!287 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !269, size: 64)
!288 = !{!289, !290, !291, !292}
!289 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !284, type: !41, flags: DIFlagArtificial)
!290 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !284, type: !41, flags: DIFlagArtificial)
!291 = !DILocalVariable(name: "hist", arg: 3, scope: !284, type: !287, flags: DIFlagArtificial)
!292 = !DILocalVariable(name: "n", arg: 4, scope: !284, type: !45, flags: DIFlagArtificial)
!293 = !DILocation(line: 0, scope: !284)
!294 = !{!295}
!295 = distinct !{!295, !296, !"phases.omp_outlined_debug__: argument 0"}
!296 = distinct !{!296, !"phases.omp_outlined_debug__"}
!297 = !DILocation(line: 33, column: 1, scope: !284)
!298 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !299, type: !41, flags: DIFlagArtificial)
!299 = distinct !DISubprogram(name: "phases.omp_outlined_debug__", scope: !1, file: !1, line: 34, type: !285, scopeLine: 34, flags: DIFlagArtificial | DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !300)
!300 = !{!298, !301, !302, !303, !304}
!301 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !299, type: !41, flags: DIFlagArtificial)
!302 = !DILocalVariable(name: "hist", arg: 3, scope: !299, file: !1, line: 32, type: !287)
!303 = !DILocalVariable(name: "n", arg: 4, scope: !299, file: !1, line: 32, type: !45)
!304 = !DILocalVariable(name: "local", scope: !305, file: !1, line: 35, type: !16)
!305 = distinct !DILexicalBlock(scope: !299, file: !1, line: 34, column: 3)
!306 = !DILocation(line: 0, scope: !299, inlinedAt: !307)
!307 = distinct !DILocation(line: 33, column: 1, scope: !284)
!308 = !DILocation(line: 35, column: 17, scope: !305, inlinedAt: !307)
!309 = !DILocation(line: 0, scope: !305, inlinedAt: !307)
!310 = !DILocation(line: 37, column: 5, scope: !311, inlinedAt: !307)
!311 = distinct !DILexicalBlock(scope: !305, file: !1, line: 36, column: 1)
!312 = !DILocation(line: 37, column: 16, scope: !311, inlinedAt: !307)
!313 = !DILocation(line: 37, column: 24, scope: !311, inlinedAt: !307)
!314 = !DILocation(line: 38, column: 1, scope: !305, inlinedAt: !307)
!315 = !DILocation(line: 40, column: 5, scope: !316, inlinedAt: !307)
!316 = distinct !DILexicalBlock(scope: !305, file: !1, line: 39, column: 1)
!317 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 44, type: !282, scopeLine: 44, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !318)
!318 = !{!319, !320, !321, !323, !324}
!319 = !DILocalVariable(name: "a", scope: !317, file: !1, line: 45, type: !14)
!320 = !DILocalVariable(name: "b", scope: !317, file: !1, line: 46, type: !14)
!321 = !DILocalVariable(name: "i", scope: !322, file: !1, line: 47, type: !16)
!322 = distinct !DILexicalBlock(scope: !317, file: !1, line: 47, column: 3)
!323 = !DILocalVariable(name: "s", scope: !317, file: !1, line: 51, type: !15)
!324 = !DILocalVariable(name: "hist", scope: !317, file: !1, line: 52, type: !325)
!325 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 128, elements: !326)
!326 = !{!327}
!327 = !DISubrange(count: 4)
!328 = distinct !DIAssignID()
!329 = !DILocation(line: 0, scope: !266, inlinedAt: !330)
!330 = distinct !DILocation(line: 53, column: 3, scope: !317)
!331 = distinct !DIAssignID()
!332 = distinct !DIAssignID()
!333 = !DILocation(line: 0, scope: !180, inlinedAt: !334)
!334 = distinct !DILocation(line: 51, column: 14, scope: !317)
!335 = distinct !DIAssignID()
!336 = distinct !DIAssignID()
!337 = distinct !DIAssignID()
!338 = !DILocation(line: 0, scope: !110, inlinedAt: !339)
!339 = distinct !DILocation(line: 50, column: 3, scope: !317)
!340 = distinct !DIAssignID()
!341 = distinct !DIAssignID()
!342 = distinct !DIAssignID()
!343 = !DILocation(line: 0, scope: !11, inlinedAt: !344)
!344 = distinct !DILocation(line: 49, column: 3, scope: !317)
!345 = distinct !DIAssignID()
!346 = distinct !DIAssignID()
!347 = distinct !DIAssignID()
!348 = !DILocation(line: 0, scope: !317)
!349 = !DILocation(line: 45, column: 15, scope: !317)
!350 = !DILocation(line: 46, column: 15, scope: !317)
!351 = !DILocation(line: 0, scope: !322)
!352 = !DILocation(line: 47, column: 3, scope: !322)
!353 = !DILocation(line: 47, column: 27, scope: !354)
!354 = distinct !DILexicalBlock(scope: !322, file: !1, line: 47, column: 3)
!355 = !DILocation(line: 48, column: 12, scope: !354)
!356 = !DILocation(line: 48, column: 5, scope: !354)
!357 = !DILocation(line: 48, column: 10, scope: !354)
!358 = distinct !{!358, !352, !359, !360, !100, !101}
!359 = !DILocation(line: 48, column: 12, scope: !322)
!360 = !{!"llvm.loop.mustprogress"}
!361 = distinct !DIAssignID()
!362 = distinct !DIAssignID()
!363 = distinct !DIAssignID()
!364 = !DILocation(line: 11, column: 1, scope: !11, inlinedAt: !344)
!365 = !DILocation(line: 16, column: 1, scope: !11, inlinedAt: !344)
!366 = distinct !DIAssignID()
!367 = distinct !DIAssignID()
!368 = distinct !DIAssignID()
!369 = !DILocation(line: 19, column: 1, scope: !110, inlinedAt: !339)
!370 = !DILocation(line: 22, column: 1, scope: !110, inlinedAt: !339)
!371 = distinct !DIAssignID()
!372 = distinct !DIAssignID()
!373 = !DILocation(line: 25, column: 3, scope: !180, inlinedAt: !334)
!374 = !DILocation(line: 25, column: 10, scope: !180, inlinedAt: !334)
!375 = distinct !DIAssignID()
!376 = !DILocation(line: 26, column: 1, scope: !180, inlinedAt: !334)
!377 = !DILocation(line: 29, column: 10, scope: !180, inlinedAt: !334)
!378 = !DILocation(line: 30, column: 1, scope: !180, inlinedAt: !334)
!379 = !DILocation(line: 29, column: 3, scope: !180, inlinedAt: !334)
!380 = !DILocation(line: 52, column: 3, scope: !317)
!381 = !DILocation(line: 52, column: 7, scope: !317)
!382 = distinct !DIAssignID()
!383 = distinct !DIAssignID()
!384 = distinct !DIAssignID()
!385 = !DILocation(line: 33, column: 1, scope: !266, inlinedAt: !330)
!386 = !DILocation(line: 42, column: 1, scope: !266, inlinedAt: !330)
!387 = !DILocation(line: 54, column: 3, scope: !317)
!388 = !DILocation(line: 55, column: 3, scope: !317)
!389 = !DILocation(line: 56, column: 12, scope: !317)
!390 = !DILocation(line: 56, column: 10, scope: !317)
!391 = !DILocation(line: 57, column: 1, scope: !317)
!392 = !DILocation(line: 56, column: 3, scope: !317)
!393 = !DISubprogram(name: "malloc", scope: !394, file: !394, line: 553, type: !395, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!394 = !DIFile(filename: "/usr/include/stdlib.h", directory: "", checksumkind: CSK_MD5, checksum: "4b47dc81a92f1fe77a152c0aac236718")
!395 = !DISubroutineType(types: !396)
!396 = !{!205, !397}
!397 = !DIDerivedType(tag: DW_TAG_typedef, name: "size_t", file: !398, line: 18, baseType: !399)
!398 = !DIFile(filename: "/usr/lib/llvm-19/lib/clang/19/include/__stddef_size_t.h", directory: "", checksumkind: CSK_MD5, checksum: "2c44e821a2b1951cde2eb0fb2e656867")
!399 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!400 = !DISubprogram(name: "calloc", scope: !394, file: !394, line: 556, type: !401, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!401 = !DISubroutineType(types: !402)
!402 = !{!205, !397, !397}
!403 = !DISubprogram(name: "free", scope: !394, file: !394, line: 568, type: !404, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!404 = !DISubroutineType(types: !405)
!405 = !{null, !205}
