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

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @scale(ptr noundef %0, double noundef %1, i32 noundef %2) #0 !dbg !11 {
  %4 = alloca ptr, align 8
  %5 = alloca double, align 8
  %6 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
    #dbg_declare(ptr %4, !18, !DIExpression(), !19)
  store double %1, ptr %5, align 8
    #dbg_declare(ptr %5, !20, !DIExpression(), !21)
  store i32 %2, ptr %6, align 4
    #dbg_declare(ptr %6, !22, !DIExpression(), !23)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @4, i32 3, ptr @scale.omp_outlined, ptr %6, ptr %4, ptr %5), !dbg !24
  ret void, !dbg !25
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @scale.omp_outlined_debug__(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !26 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca double, align 8
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !36, !DIExpression(), !37)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !38, !DIExpression(), !37)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !39, !DIExpression(), !40)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !41, !DIExpression(), !42)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !43, !DIExpression(), !44)
  %22 = load ptr, ptr %8, align 8, !dbg !45
  %23 = load ptr, ptr %9, align 8, !dbg !45
  %24 = load ptr, ptr %10, align 8, !dbg !45
    #dbg_declare(ptr %11, !46, !DIExpression(), !37)
    #dbg_declare(ptr %13, !47, !DIExpression(), !37)
  %25 = load i32, ptr %22, align 4, !dbg !48
  store i32 %25, ptr %13, align 4, !dbg !48
    #dbg_declare(ptr %14, !47, !DIExpression(), !37)
  %26 = load i32, ptr %13, align 4, !dbg !48
  %27 = sub nsw i32 %26, 0, !dbg !45
  %28 = sdiv i32 %27, 1, !dbg !45
  %29 = sub nsw i32 %28, 1, !dbg !45
  store i32 %29, ptr %14, align 4, !dbg !45
    #dbg_declare(ptr %15, !49, !DIExpression(), !37)
  store i32 0, ptr %15, align 4, !dbg !50
  %30 = load i32, ptr %13, align 4, !dbg !48
  %31 = icmp slt i32 0, %30, !dbg !45
  br i1 %31, label %32, label %74, !dbg !45

32:                                               ; preds = %5
    #dbg_declare(ptr %16, !51, !DIExpression(), !37)
  store i32 0, ptr %16, align 4, !dbg !52
    #dbg_declare(ptr %17, !53, !DIExpression(), !37)
  %33 = load i32, ptr %14, align 4, !dbg !45
  store i32 %33, ptr %17, align 4, !dbg !52
    #dbg_declare(ptr %18, !54, !DIExpression(), !37)
  store i32 1, ptr %18, align 4, !dbg !52
    #dbg_declare(ptr %19, !55, !DIExpression(), !37)
  store i32 0, ptr %19, align 4, !dbg !52
    #dbg_declare(ptr %20, !49, !DIExpression(), !37)
  %34 = load ptr, ptr %6, align 8, !dbg !45
  %35 = load i32, ptr %34, align 4, !dbg !45
  call void @__kmpc_for_static_init_4(ptr @1, i32 %35, i32 34, ptr %19, ptr %16, ptr %17, ptr %18, i32 1, i32 1), !dbg !56
  %36 = load i32, ptr %17, align 4, !dbg !52
  %37 = load i32, ptr %14, align 4, !dbg !45
  %38 = icmp sgt i32 %36, %37, !dbg !52
  br i1 %38, label %39, label %41, !dbg !52

39:                                               ; preds = %32
  %40 = load i32, ptr %14, align 4, !dbg !45
  br label %43, !dbg !52

41:                                               ; preds = %32
  %42 = load i32, ptr %17, align 4, !dbg !52
  br label %43, !dbg !52

43:                                               ; preds = %41, %39
  %44 = phi i32 [ %40, %39 ], [ %42, %41 ], !dbg !52
  store i32 %44, ptr %17, align 4, !dbg !52
  %45 = load i32, ptr %16, align 4, !dbg !52
  store i32 %45, ptr %11, align 4, !dbg !52
  br label %46, !dbg !45

46:                                               ; preds = %67, %43
  %47 = load i32, ptr %11, align 4, !dbg !52
  %48 = load i32, ptr %17, align 4, !dbg !52
  %49 = icmp sle i32 %47, %48, !dbg !45
  br i1 %49, label %50, label %70, !dbg !45

50:                                               ; preds = %46
  %51 = load i32, ptr %11, align 4, !dbg !52
  %52 = mul nsw i32 %51, 1, !dbg !50
  %53 = add nsw i32 0, %52, !dbg !50
  store i32 %53, ptr %20, align 4, !dbg !50
    #dbg_declare(ptr %21, !57, !DIExpression(), !59)
  %54 = load ptr, ptr %23, align 8, !dbg !60
  %55 = load i32, ptr %20, align 4, !dbg !61
  %56 = sext i32 %55 to i64, !dbg !60
  %57 = getelementptr inbounds double, ptr %54, i64 %56, !dbg !60
  %58 = load double, ptr %57, align 8, !dbg !60
  %59 = load double, ptr %24, align 8, !dbg !62
  %60 = fmul double %58, %59, !dbg !63
  store double %60, ptr %21, align 8, !dbg !59
  %61 = load double, ptr %21, align 8, !dbg !64
  %62 = load ptr, ptr %23, align 8, !dbg !65
  %63 = load i32, ptr %20, align 4, !dbg !66
  %64 = sext i32 %63 to i64, !dbg !65
  %65 = getelementptr inbounds double, ptr %62, i64 %64, !dbg !65
  store double %61, ptr %65, align 8, !dbg !67
  br label %66, !dbg !68

66:                                               ; preds = %50
  br label %67, !dbg !56

67:                                               ; preds = %66
  %68 = load i32, ptr %11, align 4, !dbg !52
  %69 = add nsw i32 %68, 1, !dbg !45
  store i32 %69, ptr %11, align 4, !dbg !45
  br label %46, !dbg !56, !llvm.loop !69

70:                                               ; preds = %46
  br label %71, !dbg !56

71:                                               ; preds = %70
  %72 = load ptr, ptr %6, align 8, !dbg !56
  %73 = load i32, ptr %72, align 4, !dbg !56
  call void @__kmpc_for_static_fini(ptr @3, i32 %73), !dbg !70
  br label %74, !dbg !56

74:                                               ; preds = %71, %5
  ret void, !dbg !71
}

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #2

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @scale.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !72 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !73, !DIExpression(), !74)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !75, !DIExpression(), !74)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !76, !DIExpression(), !74)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !77, !DIExpression(), !74)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !78, !DIExpression(), !74)
  %11 = load ptr, ptr %8, align 8, !dbg !79
  %12 = load ptr, ptr %9, align 8, !dbg !79
  %13 = load ptr, ptr %10, align 8, !dbg !79
  %14 = load ptr, ptr %6, align 8, !dbg !79
  %15 = load ptr, ptr %7, align 8, !dbg !79
  %16 = load ptr, ptr %8, align 8, !dbg !79
  %17 = load ptr, ptr %9, align 8, !dbg !79
  %18 = load ptr, ptr %10, align 8, !dbg !79
  call void @scale.omp_outlined_debug__(ptr %14, ptr %15, ptr %16, ptr %17, ptr %18) #2, !dbg !79
  ret void, !dbg !79
}

; Function Attrs: nounwind
declare !callback !80 void @__kmpc_fork_call(ptr, i32, ptr, ...) #2

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @dyn(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 !dbg !82 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
    #dbg_declare(ptr %4, !87, !DIExpression(), !88)
  store ptr %1, ptr %5, align 8
    #dbg_declare(ptr %5, !89, !DIExpression(), !90)
  store i32 %2, ptr %6, align 4
    #dbg_declare(ptr %6, !91, !DIExpression(), !92)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @6, i32 3, ptr @dyn.omp_outlined, ptr %6, ptr %4, ptr %5), !dbg !93
  ret void, !dbg !94
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @dyn.omp_outlined_debug__(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !95 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !99, !DIExpression(), !100)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !101, !DIExpression(), !100)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !102, !DIExpression(), !103)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !104, !DIExpression(), !105)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !106, !DIExpression(), !107)
  %21 = load ptr, ptr %8, align 8, !dbg !108
  %22 = load ptr, ptr %9, align 8, !dbg !108
  %23 = load ptr, ptr %10, align 8, !dbg !108
    #dbg_declare(ptr %11, !109, !DIExpression(), !100)
    #dbg_declare(ptr %13, !110, !DIExpression(), !100)
  %24 = load i32, ptr %21, align 4, !dbg !111
  store i32 %24, ptr %13, align 4, !dbg !111
    #dbg_declare(ptr %14, !110, !DIExpression(), !100)
  %25 = load i32, ptr %13, align 4, !dbg !111
  %26 = sub nsw i32 %25, 0, !dbg !108
  %27 = sdiv i32 %26, 1, !dbg !108
  %28 = sub nsw i32 %27, 1, !dbg !108
  store i32 %28, ptr %14, align 4, !dbg !108
    #dbg_declare(ptr %15, !112, !DIExpression(), !100)
  store i32 0, ptr %15, align 4, !dbg !113
  %29 = load i32, ptr %13, align 4, !dbg !111
  %30 = icmp slt i32 0, %29, !dbg !108
  br i1 %30, label %31, label %71, !dbg !108

31:                                               ; preds = %5
    #dbg_declare(ptr %16, !114, !DIExpression(), !100)
  store i32 0, ptr %16, align 4, !dbg !115
    #dbg_declare(ptr %17, !116, !DIExpression(), !100)
  %32 = load i32, ptr %14, align 4, !dbg !108
  store i32 %32, ptr %17, align 4, !dbg !115
    #dbg_declare(ptr %18, !117, !DIExpression(), !100)
  store i32 1, ptr %18, align 4, !dbg !115
    #dbg_declare(ptr %19, !118, !DIExpression(), !100)
  store i32 0, ptr %19, align 4, !dbg !115
    #dbg_declare(ptr %20, !112, !DIExpression(), !100)
  %33 = load i32, ptr %14, align 4, !dbg !108
  %34 = load ptr, ptr %6, align 8, !dbg !108
  %35 = load i32, ptr %34, align 4, !dbg !108
  call void @__kmpc_dispatch_init_4(ptr @6, i32 %35, i32 1073741859, i32 0, i32 %33, i32 1, i32 4), !dbg !108
  br label %36, !dbg !108

36:                                               ; preds = %67, %31
  %37 = load ptr, ptr %6, align 8, !dbg !108
  %38 = load i32, ptr %37, align 4, !dbg !108
  %39 = call i32 @__kmpc_dispatch_next_4(ptr @6, i32 %38, ptr %19, ptr %16, ptr %17, ptr %18), !dbg !108
  %40 = icmp ne i32 %39, 0, !dbg !108
  br i1 %40, label %41, label %68, !dbg !108

41:                                               ; preds = %36
  %42 = load i32, ptr %16, align 4, !dbg !115
  store i32 %42, ptr %11, align 4, !dbg !115
  br label %43, !dbg !108

43:                                               ; preds = %63, %41
  %44 = load i32, ptr %11, align 4, !dbg !115, !llvm.access.group !119
  %45 = load i32, ptr %17, align 4, !dbg !115, !llvm.access.group !119
  %46 = icmp sle i32 %44, %45, !dbg !108
  br i1 %46, label %47, label %66, !dbg !108

47:                                               ; preds = %43
  %48 = load i32, ptr %11, align 4, !dbg !115, !llvm.access.group !119
  %49 = mul nsw i32 %48, 1, !dbg !113
  %50 = add nsw i32 0, %49, !dbg !113
  store i32 %50, ptr %20, align 4, !dbg !113, !llvm.access.group !119
  %51 = load ptr, ptr %23, align 8, !dbg !120, !llvm.access.group !119
  %52 = load i32, ptr %20, align 4, !dbg !121, !llvm.access.group !119
  %53 = sext i32 %52 to i64, !dbg !120
  %54 = getelementptr inbounds double, ptr %51, i64 %53, !dbg !120
  %55 = load double, ptr %54, align 8, !dbg !120, !llvm.access.group !119
  %56 = load ptr, ptr %22, align 8, !dbg !122, !llvm.access.group !119
  %57 = load i32, ptr %20, align 4, !dbg !123, !llvm.access.group !119
  %58 = sext i32 %57 to i64, !dbg !122
  %59 = getelementptr inbounds double, ptr %56, i64 %58, !dbg !122
  %60 = load double, ptr %59, align 8, !dbg !124, !llvm.access.group !119
  %61 = fadd double %60, %55, !dbg !124
  store double %61, ptr %59, align 8, !dbg !124, !llvm.access.group !119
  br label %62, !dbg !122

62:                                               ; preds = %47
  br label %63, !dbg !125

63:                                               ; preds = %62
  %64 = load i32, ptr %11, align 4, !dbg !115, !llvm.access.group !119
  %65 = add nsw i32 %64, 1, !dbg !108
  store i32 %65, ptr %11, align 4, !dbg !108, !llvm.access.group !119
  br label %43, !dbg !125, !llvm.loop !126

66:                                               ; preds = %43
  br label %67, !dbg !125

67:                                               ; preds = %66
  br label %36, !dbg !125, !llvm.loop !129

68:                                               ; preds = %36
  %69 = load ptr, ptr %6, align 8, !dbg !125
  %70 = load i32, ptr %69, align 4, !dbg !125
  call void @__kmpc_dispatch_deinit(ptr @6, i32 %70), !dbg !125
  br label %71, !dbg !125

71:                                               ; preds = %68, %5
  ret void, !dbg !130
}

; Function Attrs: nounwind
declare void @__kmpc_dispatch_init_4(ptr, i32, i32, i32, i32, i32, i32) #2

; Function Attrs: nounwind
declare i32 @__kmpc_dispatch_next_4(ptr, i32, ptr, ptr, ptr, ptr) #2

; Function Attrs: nounwind
declare void @__kmpc_dispatch_deinit(ptr, i32) #2

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @dyn.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !131 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !132, !DIExpression(), !133)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !134, !DIExpression(), !133)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !135, !DIExpression(), !133)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !136, !DIExpression(), !133)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !137, !DIExpression(), !133)
  %11 = load ptr, ptr %8, align 8, !dbg !138
  %12 = load ptr, ptr %9, align 8, !dbg !138
  %13 = load ptr, ptr %10, align 8, !dbg !138
  %14 = load ptr, ptr %6, align 8, !dbg !138
  %15 = load ptr, ptr %7, align 8, !dbg !138
  %16 = load ptr, ptr %8, align 8, !dbg !138
  %17 = load ptr, ptr %9, align 8, !dbg !138
  %18 = load ptr, ptr %10, align 8, !dbg !138
  call void @dyn.omp_outlined_debug__(ptr %14, ptr %15, ptr %16, ptr %17, ptr %18) #2, !dbg !138
  ret void, !dbg !138
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local double @sum(ptr noundef %0, i32 noundef %1) #0 !dbg !139 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !142, !DIExpression(), !143)
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !144, !DIExpression(), !145)
    #dbg_declare(ptr %5, !146, !DIExpression(), !147)
  store double 0.000000e+00, ptr %5, align 8, !dbg !147
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @12, i32 3, ptr @sum.omp_outlined, ptr %4, ptr %5, ptr %3), !dbg !148
  %6 = load double, ptr %5, align 8, !dbg !149
  ret double %6, !dbg !150
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @sum.omp_outlined_debug__(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !151 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca double, align 8
  %21 = alloca i32, align 4
  %22 = alloca [1 x ptr], align 8
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !154, !DIExpression(), !155)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !156, !DIExpression(), !155)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !157, !DIExpression(), !158)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !159, !DIExpression(), !160)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !161, !DIExpression(), !162)
  %23 = load ptr, ptr %8, align 8, !dbg !163
  %24 = load ptr, ptr %9, align 8, !dbg !163
  %25 = load ptr, ptr %10, align 8, !dbg !163
    #dbg_declare(ptr %11, !164, !DIExpression(), !155)
    #dbg_declare(ptr %13, !165, !DIExpression(), !155)
  %26 = load i32, ptr %23, align 4, !dbg !166
  store i32 %26, ptr %13, align 4, !dbg !166
    #dbg_declare(ptr %14, !165, !DIExpression(), !155)
  %27 = load i32, ptr %13, align 4, !dbg !166
  %28 = sub nsw i32 %27, 0, !dbg !163
  %29 = sdiv i32 %28, 1, !dbg !163
  %30 = sub nsw i32 %29, 1, !dbg !163
  store i32 %30, ptr %14, align 4, !dbg !163
    #dbg_declare(ptr %15, !167, !DIExpression(), !155)
  store i32 0, ptr %15, align 4, !dbg !168
  %31 = load i32, ptr %13, align 4, !dbg !166
  %32 = icmp slt i32 0, %31, !dbg !163
  br i1 %32, label %33, label %82, !dbg !163

33:                                               ; preds = %5
    #dbg_declare(ptr %16, !169, !DIExpression(), !155)
  store i32 0, ptr %16, align 4, !dbg !170
    #dbg_declare(ptr %17, !171, !DIExpression(), !155)
  %34 = load i32, ptr %14, align 4, !dbg !163
  store i32 %34, ptr %17, align 4, !dbg !170
    #dbg_declare(ptr %18, !172, !DIExpression(), !155)
  store i32 1, ptr %18, align 4, !dbg !170
    #dbg_declare(ptr %19, !173, !DIExpression(), !155)
  store i32 0, ptr %19, align 4, !dbg !170
    #dbg_declare(ptr %20, !174, !DIExpression(), !155)
  store double 0.000000e+00, ptr %20, align 8, !dbg !175
    #dbg_declare(ptr %21, !167, !DIExpression(), !155)
  %35 = load ptr, ptr %6, align 8, !dbg !163
  %36 = load i32, ptr %35, align 4, !dbg !163
  call void @__kmpc_for_static_init_4(ptr @8, i32 %36, i32 34, ptr %19, ptr %16, ptr %17, ptr %18, i32 1, i32 1), !dbg !176
  %37 = load i32, ptr %17, align 4, !dbg !170
  %38 = load i32, ptr %14, align 4, !dbg !163
  %39 = icmp sgt i32 %37, %38, !dbg !170
  br i1 %39, label %40, label %42, !dbg !170

40:                                               ; preds = %33
  %41 = load i32, ptr %14, align 4, !dbg !163
  br label %44, !dbg !170

42:                                               ; preds = %33
  %43 = load i32, ptr %17, align 4, !dbg !170
  br label %44, !dbg !170

44:                                               ; preds = %42, %40
  %45 = phi i32 [ %41, %40 ], [ %43, %42 ], !dbg !170
  store i32 %45, ptr %17, align 4, !dbg !170
  %46 = load i32, ptr %16, align 4, !dbg !170
  store i32 %46, ptr %11, align 4, !dbg !170
  br label %47, !dbg !163

47:                                               ; preds = %63, %44
  %48 = load i32, ptr %11, align 4, !dbg !170
  %49 = load i32, ptr %17, align 4, !dbg !170
  %50 = icmp sle i32 %48, %49, !dbg !163
  br i1 %50, label %51, label %66, !dbg !163

51:                                               ; preds = %47
  %52 = load i32, ptr %11, align 4, !dbg !170
  %53 = mul nsw i32 %52, 1, !dbg !168
  %54 = add nsw i32 0, %53, !dbg !168
  store i32 %54, ptr %21, align 4, !dbg !168
  %55 = load ptr, ptr %25, align 8, !dbg !177
  %56 = load i32, ptr %21, align 4, !dbg !178
  %57 = sext i32 %56 to i64, !dbg !177
  %58 = getelementptr inbounds double, ptr %55, i64 %57, !dbg !177
  %59 = load double, ptr %58, align 8, !dbg !177
  %60 = load double, ptr %20, align 8, !dbg !179
  %61 = fadd double %60, %59, !dbg !179
  store double %61, ptr %20, align 8, !dbg !179
  br label %62, !dbg !180

62:                                               ; preds = %51
  br label %63, !dbg !176

63:                                               ; preds = %62
  %64 = load i32, ptr %11, align 4, !dbg !170
  %65 = add nsw i32 %64, 1, !dbg !163
  store i32 %65, ptr %11, align 4, !dbg !163
  br label %47, !dbg !176, !llvm.loop !181

66:                                               ; preds = %47
  br label %67, !dbg !176

67:                                               ; preds = %66
  %68 = load ptr, ptr %6, align 8, !dbg !176
  %69 = load i32, ptr %68, align 4, !dbg !176
  call void @__kmpc_for_static_fini(ptr @10, i32 %69), !dbg !182
  %70 = getelementptr inbounds [1 x ptr], ptr %22, i64 0, i64 0, !dbg !176
  store ptr %20, ptr %70, align 8, !dbg !176
  %71 = load ptr, ptr %6, align 8, !dbg !176
  %72 = load i32, ptr %71, align 4, !dbg !176
  %73 = call i32 @__kmpc_reduce_nowait(ptr @11, i32 %72, i32 1, i64 8, ptr %22, ptr @sum.omp_outlined_debug__.omp.reduction.reduction_func, ptr @.gomp_critical_user_.reduction.var), !dbg !176
  switch i32 %73, label %81 [
    i32 1, label %74
    i32 2, label %78
  ], !dbg !176

74:                                               ; preds = %67
  %75 = load double, ptr %24, align 8, !dbg !175
  %76 = load double, ptr %20, align 8, !dbg !175
  %77 = fadd double %75, %76, !dbg !183
  store double %77, ptr %24, align 8, !dbg !183
  call void @__kmpc_end_reduce_nowait(ptr @11, i32 %72, ptr @.gomp_critical_user_.reduction.var), !dbg !176
  br label %81, !dbg !176

78:                                               ; preds = %67
  %79 = load double, ptr %20, align 8, !dbg !175
  %80 = atomicrmw fadd ptr %24, double %79 monotonic, align 8, !dbg !176
  br label %81, !dbg !176

81:                                               ; preds = %78, %74, %67
  br label %82, !dbg !176

82:                                               ; preds = %81, %5
  ret void, !dbg !184
}

; Function Attrs: noinline norecurse nounwind uwtable
define internal void @sum.omp_outlined_debug__.omp.reduction.reduction_func(ptr noundef %0, ptr noundef %1) #3 !dbg !185 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !187, !DIExpression(), !189)
  store ptr %1, ptr %4, align 8
    #dbg_declare(ptr %4, !190, !DIExpression(), !189)
  %5 = load ptr, ptr %3, align 8, !dbg !191
  %6 = load ptr, ptr %4, align 8, !dbg !191
  %7 = getelementptr inbounds [1 x ptr], ptr %6, i64 0, i64 0, !dbg !191
  %8 = load ptr, ptr %7, align 8, !dbg !191
  %9 = getelementptr inbounds [1 x ptr], ptr %5, i64 0, i64 0, !dbg !191
  %10 = load ptr, ptr %9, align 8, !dbg !191
  %11 = load double, ptr %10, align 8, !dbg !192
  %12 = load double, ptr %8, align 8, !dbg !192
  %13 = fadd double %11, %12, !dbg !193
  store double %13, ptr %10, align 8, !dbg !193
  ret void, !dbg !192
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr) #4

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr) #4

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @sum.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 4 dereferenceable(4) %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef nonnull align 8 dereferenceable(8) %4) #1 !dbg !194 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  store ptr %0, ptr %6, align 8
    #dbg_declare(ptr %6, !195, !DIExpression(), !196)
  store ptr %1, ptr %7, align 8
    #dbg_declare(ptr %7, !197, !DIExpression(), !196)
  store ptr %2, ptr %8, align 8
    #dbg_declare(ptr %8, !198, !DIExpression(), !196)
  store ptr %3, ptr %9, align 8
    #dbg_declare(ptr %9, !199, !DIExpression(), !196)
  store ptr %4, ptr %10, align 8
    #dbg_declare(ptr %10, !200, !DIExpression(), !196)
  %11 = load ptr, ptr %8, align 8, !dbg !201
  %12 = load ptr, ptr %9, align 8, !dbg !201
  %13 = load ptr, ptr %10, align 8, !dbg !201
  %14 = load ptr, ptr %6, align 8, !dbg !201
  %15 = load ptr, ptr %7, align 8, !dbg !201
  %16 = load ptr, ptr %8, align 8, !dbg !201
  %17 = load ptr, ptr %9, align 8, !dbg !201
  %18 = load ptr, ptr %10, align 8, !dbg !201
  call void @sum.omp_outlined_debug__(ptr %14, ptr %15, ptr %16, ptr %17, ptr %18) #2, !dbg !201
  ret void, !dbg !201
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @phases(ptr noundef %0, i32 noundef %1) #0 !dbg !202 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !206, !DIExpression(), !207)
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !208, !DIExpression(), !209)
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @16, i32 2, ptr @phases.omp_outlined, ptr %3, ptr %4), !dbg !210
  ret void, !dbg !211
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @phases.omp_outlined_debug__(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 8 dereferenceable(8) %2, ptr noundef nonnull align 4 dereferenceable(4) %3) #1 !dbg !212 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i32, align 4
  store ptr %0, ptr %5, align 8
    #dbg_declare(ptr %5, !216, !DIExpression(), !217)
  store ptr %1, ptr %6, align 8
    #dbg_declare(ptr %6, !218, !DIExpression(), !217)
  store ptr %2, ptr %7, align 8
    #dbg_declare(ptr %7, !219, !DIExpression(), !220)
  store ptr %3, ptr %8, align 8
    #dbg_declare(ptr %8, !221, !DIExpression(), !222)
  %10 = load ptr, ptr %7, align 8, !dbg !223
  %11 = load ptr, ptr %8, align 8, !dbg !223
    #dbg_declare(ptr %9, !224, !DIExpression(), !226)
  %12 = call i32 @omp_get_thread_num(), !dbg !227
  store i32 %12, ptr %9, align 4, !dbg !226
  %13 = load ptr, ptr %10, align 8, !dbg !228
  %14 = load i32, ptr %9, align 4, !dbg !230
  %15 = srem i32 %14, 4, !dbg !231
  %16 = sext i32 %15 to i64, !dbg !228
  %17 = getelementptr inbounds i32, ptr %13, i64 %16, !dbg !228
  %18 = load i32, ptr %11, align 4, !dbg !232
  %19 = atomicrmw add ptr %17, i32 %18 monotonic, align 4, !dbg !228
  %20 = load ptr, ptr %5, align 8, !dbg !233
  %21 = load i32, ptr %20, align 4, !dbg !233
  call void @__kmpc_barrier(ptr @14, i32 %21), !dbg !233
  %22 = load ptr, ptr %10, align 8, !dbg !234
  %23 = getelementptr inbounds i32, ptr %22, i64 0, !dbg !234
  %24 = load i32, ptr %9, align 4, !dbg !236
  %25 = atomicrmw add ptr %23, i32 %24 monotonic, align 4, !dbg !234
  ret void, !dbg !237
}

declare i32 @omp_get_thread_num() #5

; Function Attrs: convergent nounwind
declare void @__kmpc_barrier(ptr, i32) #4

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @phases.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 8 dereferenceable(8) %2, ptr noundef nonnull align 4 dereferenceable(4) %3) #1 !dbg !238 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  store ptr %0, ptr %5, align 8
    #dbg_declare(ptr %5, !239, !DIExpression(), !240)
  store ptr %1, ptr %6, align 8
    #dbg_declare(ptr %6, !241, !DIExpression(), !240)
  store ptr %2, ptr %7, align 8
    #dbg_declare(ptr %7, !242, !DIExpression(), !240)
  store ptr %3, ptr %8, align 8
    #dbg_declare(ptr %8, !243, !DIExpression(), !240)
  %9 = load ptr, ptr %7, align 8, !dbg !244
  %10 = load ptr, ptr %8, align 8, !dbg !244
  %11 = load ptr, ptr %5, align 8, !dbg !244
  %12 = load ptr, ptr %6, align 8, !dbg !244
  %13 = load ptr, ptr %7, align 8, !dbg !244
  %14 = load ptr, ptr %8, align 8, !dbg !244
  call void @phases.omp_outlined_debug__(ptr %11, ptr %12, ptr %13, ptr %14) #2, !dbg !244
  ret void, !dbg !244
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main() #0 !dbg !245 {
  %1 = alloca i32, align 4
  %2 = alloca ptr, align 8
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca double, align 8
  %6 = alloca [4 x i32], align 16
  store i32 0, ptr %1, align 4
    #dbg_declare(ptr %2, !248, !DIExpression(), !249)
  %7 = call noalias ptr @malloc(i64 noundef 8000) #10, !dbg !250
  store ptr %7, ptr %2, align 8, !dbg !249
    #dbg_declare(ptr %3, !251, !DIExpression(), !252)
  %8 = call noalias ptr @calloc(i64 noundef 1000, i64 noundef 8) #11, !dbg !253
  store ptr %8, ptr %3, align 8, !dbg !252
    #dbg_declare(ptr %4, !254, !DIExpression(), !256)
  store i32 0, ptr %4, align 4, !dbg !256
  br label %9, !dbg !257

9:                                                ; preds = %19, %0
  %10 = load i32, ptr %4, align 4, !dbg !258
  %11 = icmp slt i32 %10, 1000, !dbg !260
  br i1 %11, label %12, label %22, !dbg !261

12:                                               ; preds = %9
  %13 = load i32, ptr %4, align 4, !dbg !262
  %14 = sitofp i32 %13 to double, !dbg !262
  %15 = load ptr, ptr %2, align 8, !dbg !263
  %16 = load i32, ptr %4, align 4, !dbg !264
  %17 = sext i32 %16 to i64, !dbg !263
  %18 = getelementptr inbounds double, ptr %15, i64 %17, !dbg !263
  store double %14, ptr %18, align 8, !dbg !265
  br label %19, !dbg !263

19:                                               ; preds = %12
  %20 = load i32, ptr %4, align 4, !dbg !266
  %21 = add nsw i32 %20, 1, !dbg !266
  store i32 %21, ptr %4, align 4, !dbg !266
  br label %9, !dbg !267, !llvm.loop !268

22:                                               ; preds = %9
  %23 = load ptr, ptr %2, align 8, !dbg !271
  call void @scale(ptr noundef %23, double noundef 2.000000e+00, i32 noundef 1000), !dbg !272
  %24 = load ptr, ptr %2, align 8, !dbg !273
  %25 = load ptr, ptr %3, align 8, !dbg !274
  call void @dyn(ptr noundef %24, ptr noundef %25, i32 noundef 1000), !dbg !275
    #dbg_declare(ptr %5, !276, !DIExpression(), !277)
  %26 = load ptr, ptr %2, align 8, !dbg !278
  %27 = call double @sum(ptr noundef %26, i32 noundef 1000), !dbg !279
  store double %27, ptr %5, align 8, !dbg !277
    #dbg_declare(ptr %6, !280, !DIExpression(), !284)
  call void @llvm.memset.p0.i64(ptr align 16 %6, i8 0, i64 16, i1 false), !dbg !284
  %28 = getelementptr inbounds [4 x i32], ptr %6, i64 0, i64 0, !dbg !285
  call void @phases(ptr noundef %28, i32 noundef 3), !dbg !286
  %29 = load ptr, ptr %2, align 8, !dbg !287
  call void @free(ptr noundef %29) #2, !dbg !288
  %30 = load ptr, ptr %3, align 8, !dbg !289
  call void @free(ptr noundef %30) #2, !dbg !290
  %31 = load double, ptr %5, align 8, !dbg !291
  %32 = fcmp ogt double %31, 0.000000e+00, !dbg !292
  %33 = zext i1 %32 to i64, !dbg !291
  %34 = select i1 %32, i32 0, i32 1, !dbg !291
  ret i32 %34, !dbg !293
}

; Function Attrs: nounwind allocsize(0)
declare noalias ptr @malloc(i64 noundef) #6

; Function Attrs: nounwind allocsize(0,1)
declare noalias ptr @calloc(i64 noundef, i64 noundef) #7

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #8

; Function Attrs: nounwind
declare void @free(ptr noundef) #9

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { noinline norecurse nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }
attributes #3 = { noinline norecurse nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { convergent nounwind }
attributes #5 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nounwind allocsize(0) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { nounwind allocsize(0,1) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #9 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #10 = { nounwind allocsize(0) }
attributes #11 = { nounwind allocsize(0,1) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "omp_loops.c", directory: "/work/main/pass/tests/ir", checksumkind: CSK_MD5, checksum: "ea4b0495707fb61ef2432fe4bca07463")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"openmp", i32 51}
!6 = !{i32 8, !"PIC Level", i32 2}
!7 = !{i32 7, !"PIE Level", i32 2}
!8 = !{i32 7, !"uwtable", i32 2}
!9 = !{i32 7, !"frame-pointer", i32 2}
!10 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!11 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 10, type: !12, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!12 = !DISubroutineType(types: !13)
!13 = !{null, !14, !15, !16}
!14 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!15 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !{}
!18 = !DILocalVariable(name: "a", arg: 1, scope: !11, file: !1, line: 10, type: !14)
!19 = !DILocation(line: 10, column: 20, scope: !11)
!20 = !DILocalVariable(name: "f", arg: 2, scope: !11, file: !1, line: 10, type: !15)
!21 = !DILocation(line: 10, column: 30, scope: !11)
!22 = !DILocalVariable(name: "n", arg: 3, scope: !11, file: !1, line: 10, type: !16)
!23 = !DILocation(line: 10, column: 37, scope: !11)
!24 = !DILocation(line: 11, column: 1, scope: !11)
!25 = !DILocation(line: 16, column: 1, scope: !11)
!26 = distinct !DISubprogram(name: "scale.omp_outlined_debug__", scope: !1, file: !1, line: 12, type: !27, scopeLine: 12, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!27 = !DISubroutineType(types: !28)
!28 = !{null, !29, !29, !33, !34, !35}
!29 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !30)
!30 = !DIDerivedType(tag: DW_TAG_restrict_type, baseType: !31)
!31 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !32, size: 64)
!32 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !16)
!33 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !16, size: 64)
!34 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !14, size: 64)
!35 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !15, size: 64)
!36 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !26, type: !29, flags: DIFlagArtificial)
!37 = !DILocation(line: 0, scope: !26)
!38 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !26, type: !29, flags: DIFlagArtificial)
!39 = !DILocalVariable(name: "n", arg: 3, scope: !26, file: !1, line: 10, type: !33)
!40 = !DILocation(line: 10, column: 37, scope: !26)
!41 = !DILocalVariable(name: "a", arg: 4, scope: !26, file: !1, line: 10, type: !34)
!42 = !DILocation(line: 10, column: 20, scope: !26)
!43 = !DILocalVariable(name: "f", arg: 5, scope: !26, file: !1, line: 10, type: !35)
!44 = !DILocation(line: 10, column: 30, scope: !26)
!45 = !DILocation(line: 12, column: 3, scope: !26)
!46 = !DILocalVariable(name: ".omp.iv", scope: !26, type: !16, flags: DIFlagArtificial)
!47 = !DILocalVariable(name: ".capture_expr.", scope: !26, type: !16, flags: DIFlagArtificial)
!48 = !DILocation(line: 12, column: 23, scope: !26)
!49 = !DILocalVariable(name: "i", scope: !26, type: !16, flags: DIFlagArtificial)
!50 = !DILocation(line: 12, column: 26, scope: !26)
!51 = !DILocalVariable(name: ".omp.lb", scope: !26, type: !16, flags: DIFlagArtificial)
!52 = !DILocation(line: 12, column: 8, scope: !26)
!53 = !DILocalVariable(name: ".omp.ub", scope: !26, type: !16, flags: DIFlagArtificial)
!54 = !DILocalVariable(name: ".omp.stride", scope: !26, type: !16, flags: DIFlagArtificial)
!55 = !DILocalVariable(name: ".omp.is_last", scope: !26, type: !16, flags: DIFlagArtificial)
!56 = !DILocation(line: 11, column: 1, scope: !26)
!57 = !DILocalVariable(name: "t", scope: !58, file: !1, line: 13, type: !15)
!58 = distinct !DILexicalBlock(scope: !26, file: !1, line: 12, column: 31)
!59 = !DILocation(line: 13, column: 12, scope: !58)
!60 = !DILocation(line: 13, column: 16, scope: !58)
!61 = !DILocation(line: 13, column: 18, scope: !58)
!62 = !DILocation(line: 13, column: 23, scope: !58)
!63 = !DILocation(line: 13, column: 21, scope: !58)
!64 = !DILocation(line: 14, column: 12, scope: !58)
!65 = !DILocation(line: 14, column: 5, scope: !58)
!66 = !DILocation(line: 14, column: 7, scope: !58)
!67 = !DILocation(line: 14, column: 10, scope: !58)
!68 = !DILocation(line: 15, column: 3, scope: !58)
!69 = distinct !{!69, !56, !70}
!70 = !DILocation(line: 11, column: 42, scope: !26)
!71 = !DILocation(line: 15, column: 3, scope: !26)
!72 = distinct !DISubprogram(name: "scale.omp_outlined", scope: !1, file: !1, line: 11, type: !27, scopeLine: 11, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!73 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !72, type: !29, flags: DIFlagArtificial)
!74 = !DILocation(line: 0, scope: !72)
!75 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !72, type: !29, flags: DIFlagArtificial)
!76 = !DILocalVariable(name: "n", arg: 3, scope: !72, type: !33, flags: DIFlagArtificial)
!77 = !DILocalVariable(name: "a", arg: 4, scope: !72, type: !34, flags: DIFlagArtificial)
!78 = !DILocalVariable(name: "f", arg: 5, scope: !72, type: !35, flags: DIFlagArtificial)
!79 = !DILocation(line: 11, column: 1, scope: !72)
!80 = !{!81}
!81 = !{i64 2, i64 -1, i64 -1, i1 true}
!82 = distinct !DISubprogram(name: "dyn", scope: !1, file: !1, line: 18, type: !83, scopeLine: 18, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!83 = !DISubroutineType(types: !84)
!84 = !{null, !14, !85, !16}
!85 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !86, size: 64)
!86 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !15)
!87 = !DILocalVariable(name: "a", arg: 1, scope: !82, file: !1, line: 18, type: !14)
!88 = !DILocation(line: 18, column: 18, scope: !82)
!89 = !DILocalVariable(name: "b", arg: 2, scope: !82, file: !1, line: 18, type: !85)
!90 = !DILocation(line: 18, column: 35, scope: !82)
!91 = !DILocalVariable(name: "n", arg: 3, scope: !82, file: !1, line: 18, type: !16)
!92 = !DILocation(line: 18, column: 42, scope: !82)
!93 = !DILocation(line: 19, column: 1, scope: !82)
!94 = !DILocation(line: 22, column: 1, scope: !82)
!95 = distinct !DISubprogram(name: "dyn.omp_outlined_debug__", scope: !1, file: !1, line: 20, type: !96, scopeLine: 20, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!96 = !DISubroutineType(types: !97)
!97 = !{null, !29, !29, !33, !34, !98}
!98 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !85, size: 64)
!99 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !95, type: !29, flags: DIFlagArtificial)
!100 = !DILocation(line: 0, scope: !95)
!101 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !95, type: !29, flags: DIFlagArtificial)
!102 = !DILocalVariable(name: "n", arg: 3, scope: !95, file: !1, line: 18, type: !33)
!103 = !DILocation(line: 18, column: 42, scope: !95)
!104 = !DILocalVariable(name: "a", arg: 4, scope: !95, file: !1, line: 18, type: !34)
!105 = !DILocation(line: 18, column: 18, scope: !95)
!106 = !DILocalVariable(name: "b", arg: 5, scope: !95, file: !1, line: 18, type: !98)
!107 = !DILocation(line: 18, column: 35, scope: !95)
!108 = !DILocation(line: 20, column: 3, scope: !95)
!109 = !DILocalVariable(name: ".omp.iv", scope: !95, type: !16, flags: DIFlagArtificial)
!110 = !DILocalVariable(name: ".capture_expr.", scope: !95, type: !16, flags: DIFlagArtificial)
!111 = !DILocation(line: 20, column: 23, scope: !95)
!112 = !DILocalVariable(name: "i", scope: !95, type: !16, flags: DIFlagArtificial)
!113 = !DILocation(line: 20, column: 26, scope: !95)
!114 = !DILocalVariable(name: ".omp.lb", scope: !95, type: !16, flags: DIFlagArtificial)
!115 = !DILocation(line: 20, column: 8, scope: !95)
!116 = !DILocalVariable(name: ".omp.ub", scope: !95, type: !16, flags: DIFlagArtificial)
!117 = !DILocalVariable(name: ".omp.stride", scope: !95, type: !16, flags: DIFlagArtificial)
!118 = !DILocalVariable(name: ".omp.is_last", scope: !95, type: !16, flags: DIFlagArtificial)
!119 = distinct !{}
!120 = !DILocation(line: 21, column: 13, scope: !95)
!121 = !DILocation(line: 21, column: 15, scope: !95)
!122 = !DILocation(line: 21, column: 5, scope: !95)
!123 = !DILocation(line: 21, column: 7, scope: !95)
!124 = !DILocation(line: 21, column: 10, scope: !95)
!125 = !DILocation(line: 19, column: 1, scope: !95)
!126 = distinct !{!126, !125, !127, !128}
!127 = !DILocation(line: 19, column: 46, scope: !95)
!128 = !{!"llvm.loop.parallel_accesses", !119}
!129 = distinct !{!129, !125, !127}
!130 = !DILocation(line: 21, column: 16, scope: !95)
!131 = distinct !DISubprogram(name: "dyn.omp_outlined", scope: !1, file: !1, line: 19, type: !96, scopeLine: 19, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!132 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !131, type: !29, flags: DIFlagArtificial)
!133 = !DILocation(line: 0, scope: !131)
!134 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !131, type: !29, flags: DIFlagArtificial)
!135 = !DILocalVariable(name: "n", arg: 3, scope: !131, type: !33, flags: DIFlagArtificial)
!136 = !DILocalVariable(name: "a", arg: 4, scope: !131, type: !34, flags: DIFlagArtificial)
!137 = !DILocalVariable(name: "b", arg: 5, scope: !131, type: !98, flags: DIFlagArtificial)
!138 = !DILocation(line: 19, column: 1, scope: !131)
!139 = distinct !DISubprogram(name: "sum", scope: !1, file: !1, line: 24, type: !140, scopeLine: 24, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!140 = !DISubroutineType(types: !141)
!141 = !{!15, !85, !16}
!142 = !DILocalVariable(name: "a", arg: 1, scope: !139, file: !1, line: 24, type: !85)
!143 = !DILocation(line: 24, column: 26, scope: !139)
!144 = !DILocalVariable(name: "n", arg: 2, scope: !139, file: !1, line: 24, type: !16)
!145 = !DILocation(line: 24, column: 33, scope: !139)
!146 = !DILocalVariable(name: "s", scope: !139, file: !1, line: 25, type: !15)
!147 = !DILocation(line: 25, column: 10, scope: !139)
!148 = !DILocation(line: 26, column: 1, scope: !139)
!149 = !DILocation(line: 29, column: 10, scope: !139)
!150 = !DILocation(line: 29, column: 3, scope: !139)
!151 = distinct !DISubprogram(name: "sum.omp_outlined_debug__", scope: !1, file: !1, line: 27, type: !152, scopeLine: 27, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!152 = !DISubroutineType(types: !153)
!153 = !{null, !29, !29, !33, !35, !98}
!154 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !151, type: !29, flags: DIFlagArtificial)
!155 = !DILocation(line: 0, scope: !151)
!156 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !151, type: !29, flags: DIFlagArtificial)
!157 = !DILocalVariable(name: "n", arg: 3, scope: !151, file: !1, line: 24, type: !33)
!158 = !DILocation(line: 24, column: 33, scope: !151)
!159 = !DILocalVariable(name: "s", arg: 4, scope: !151, file: !1, line: 25, type: !35)
!160 = !DILocation(line: 25, column: 10, scope: !151)
!161 = !DILocalVariable(name: "a", arg: 5, scope: !151, file: !1, line: 24, type: !98)
!162 = !DILocation(line: 24, column: 26, scope: !151)
!163 = !DILocation(line: 27, column: 3, scope: !151)
!164 = !DILocalVariable(name: ".omp.iv", scope: !151, type: !16, flags: DIFlagArtificial)
!165 = !DILocalVariable(name: ".capture_expr.", scope: !151, type: !16, flags: DIFlagArtificial)
!166 = !DILocation(line: 27, column: 23, scope: !151)
!167 = !DILocalVariable(name: "i", scope: !151, type: !16, flags: DIFlagArtificial)
!168 = !DILocation(line: 27, column: 26, scope: !151)
!169 = !DILocalVariable(name: ".omp.lb", scope: !151, type: !16, flags: DIFlagArtificial)
!170 = !DILocation(line: 27, column: 8, scope: !151)
!171 = !DILocalVariable(name: ".omp.ub", scope: !151, type: !16, flags: DIFlagArtificial)
!172 = !DILocalVariable(name: ".omp.stride", scope: !151, type: !16, flags: DIFlagArtificial)
!173 = !DILocalVariable(name: ".omp.is_last", scope: !151, type: !16, flags: DIFlagArtificial)
!174 = !DILocalVariable(name: "s", scope: !151, type: !15, flags: DIFlagArtificial)
!175 = !DILocation(line: 26, column: 40, scope: !151)
!176 = !DILocation(line: 26, column: 1, scope: !151)
!177 = !DILocation(line: 28, column: 10, scope: !151)
!178 = !DILocation(line: 28, column: 12, scope: !151)
!179 = !DILocation(line: 28, column: 7, scope: !151)
!180 = !DILocation(line: 28, column: 5, scope: !151)
!181 = distinct !{!181, !176, !182}
!182 = !DILocation(line: 26, column: 42, scope: !151)
!183 = !DILocation(line: 26, column: 36, scope: !151)
!184 = !DILocation(line: 28, column: 13, scope: !151)
!185 = distinct !DISubprogram(linkageName: "sum.omp_outlined_debug__.omp.reduction.reduction_func", scope: !1, file: !1, line: 26, type: !186, scopeLine: 26, flags: DIFlagArtificial, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!186 = !DISubroutineType(types: !17)
!187 = !DILocalVariable(arg: 1, scope: !185, type: !188, flags: DIFlagArtificial)
!188 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!189 = !DILocation(line: 0, scope: !185)
!190 = !DILocalVariable(arg: 2, scope: !185, type: !188, flags: DIFlagArtificial)
!191 = !DILocation(line: 26, column: 42, scope: !185)
!192 = !DILocation(line: 26, column: 40, scope: !185)
!193 = !DILocation(line: 26, column: 36, scope: !185)
!194 = distinct !DISubprogram(name: "sum.omp_outlined", scope: !1, file: !1, line: 26, type: !152, scopeLine: 26, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!195 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !194, type: !29, flags: DIFlagArtificial)
!196 = !DILocation(line: 0, scope: !194)
!197 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !194, type: !29, flags: DIFlagArtificial)
!198 = !DILocalVariable(name: "n", arg: 3, scope: !194, type: !33, flags: DIFlagArtificial)
!199 = !DILocalVariable(name: "s", arg: 4, scope: !194, type: !35, flags: DIFlagArtificial)
!200 = !DILocalVariable(name: "a", arg: 5, scope: !194, type: !98, flags: DIFlagArtificial)
!201 = !DILocation(line: 26, column: 1, scope: !194)
!202 = distinct !DISubprogram(name: "phases", scope: !1, file: !1, line: 32, type: !203, scopeLine: 32, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!203 = !DISubroutineType(types: !204)
!204 = !{null, !205, !16}
!205 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !16, size: 64)
!206 = !DILocalVariable(name: "hist", arg: 1, scope: !202, file: !1, line: 32, type: !205)
!207 = !DILocation(line: 32, column: 18, scope: !202)
!208 = !DILocalVariable(name: "n", arg: 2, scope: !202, file: !1, line: 32, type: !16)
!209 = !DILocation(line: 32, column: 28, scope: !202)
!210 = !DILocation(line: 33, column: 1, scope: !202)
!211 = !DILocation(line: 42, column: 1, scope: !202)
!212 = distinct !DISubprogram(name: "phases.omp_outlined_debug__", scope: !1, file: !1, line: 34, type: !213, scopeLine: 34, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!213 = !DISubroutineType(types: !214)
!214 = !{null, !29, !29, !215, !33}
!215 = !DIDerivedType(tag: DW_TAG_reference_type, baseType: !205, size: 64)
!216 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !212, type: !29, flags: DIFlagArtificial)
!217 = !DILocation(line: 0, scope: !212)
!218 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !212, type: !29, flags: DIFlagArtificial)
!219 = !DILocalVariable(name: "hist", arg: 3, scope: !212, file: !1, line: 32, type: !215)
!220 = !DILocation(line: 32, column: 18, scope: !212)
!221 = !DILocalVariable(name: "n", arg: 4, scope: !212, file: !1, line: 32, type: !33)
!222 = !DILocation(line: 32, column: 28, scope: !212)
!223 = !DILocation(line: 34, column: 3, scope: !212)
!224 = !DILocalVariable(name: "local", scope: !225, file: !1, line: 35, type: !16)
!225 = distinct !DILexicalBlock(scope: !212, file: !1, line: 34, column: 3)
!226 = !DILocation(line: 35, column: 9, scope: !225)
!227 = !DILocation(line: 35, column: 17, scope: !225)
!228 = !DILocation(line: 37, column: 5, scope: !229)
!229 = distinct !DILexicalBlock(scope: !225, file: !1, line: 36, column: 1)
!230 = !DILocation(line: 37, column: 10, scope: !229)
!231 = !DILocation(line: 37, column: 16, scope: !229)
!232 = !DILocation(line: 37, column: 24, scope: !229)
!233 = !DILocation(line: 38, column: 1, scope: !225)
!234 = !DILocation(line: 40, column: 5, scope: !235)
!235 = distinct !DILexicalBlock(scope: !225, file: !1, line: 39, column: 1)
!236 = !DILocation(line: 40, column: 16, scope: !235)
!237 = !DILocation(line: 41, column: 3, scope: !212)
!238 = distinct !DISubprogram(name: "phases.omp_outlined", scope: !1, file: !1, line: 33, type: !213, scopeLine: 33, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !17)
!239 = !DILocalVariable(name: ".global_tid.", arg: 1, scope: !238, type: !29, flags: DIFlagArtificial)
!240 = !DILocation(line: 0, scope: !238)
!241 = !DILocalVariable(name: ".bound_tid.", arg: 2, scope: !238, type: !29, flags: DIFlagArtificial)
!242 = !DILocalVariable(name: "hist", arg: 3, scope: !238, type: !215, flags: DIFlagArtificial)
!243 = !DILocalVariable(name: "n", arg: 4, scope: !238, type: !33, flags: DIFlagArtificial)
!244 = !DILocation(line: 33, column: 1, scope: !238)
!245 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 44, type: !246, scopeLine: 44, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !17)
!246 = !DISubroutineType(types: !247)
!247 = !{!16}
!248 = !DILocalVariable(name: "a", scope: !245, file: !1, line: 45, type: !14)
!249 = !DILocation(line: 45, column: 11, scope: !245)
!250 = !DILocation(line: 45, column: 15, scope: !245)
!251 = !DILocalVariable(name: "b", scope: !245, file: !1, line: 46, type: !14)
!252 = !DILocation(line: 46, column: 11, scope: !245)
!253 = !DILocation(line: 46, column: 15, scope: !245)
!254 = !DILocalVariable(name: "i", scope: !255, file: !1, line: 47, type: !16)
!255 = distinct !DILexicalBlock(scope: !245, file: !1, line: 47, column: 3)
!256 = !DILocation(line: 47, column: 12, scope: !255)
!257 = !DILocation(line: 47, column: 8, scope: !255)
!258 = !DILocation(line: 47, column: 19, scope: !259)
!259 = distinct !DILexicalBlock(scope: !255, file: !1, line: 47, column: 3)
!260 = !DILocation(line: 47, column: 21, scope: !259)
!261 = !DILocation(line: 47, column: 3, scope: !255)
!262 = !DILocation(line: 48, column: 12, scope: !259)
!263 = !DILocation(line: 48, column: 5, scope: !259)
!264 = !DILocation(line: 48, column: 7, scope: !259)
!265 = !DILocation(line: 48, column: 10, scope: !259)
!266 = !DILocation(line: 47, column: 27, scope: !259)
!267 = !DILocation(line: 47, column: 3, scope: !259)
!268 = distinct !{!268, !261, !269, !270}
!269 = !DILocation(line: 48, column: 12, scope: !255)
!270 = !{!"llvm.loop.mustprogress"}
!271 = !DILocation(line: 49, column: 9, scope: !245)
!272 = !DILocation(line: 49, column: 3, scope: !245)
!273 = !DILocation(line: 50, column: 7, scope: !245)
!274 = !DILocation(line: 50, column: 10, scope: !245)
!275 = !DILocation(line: 50, column: 3, scope: !245)
!276 = !DILocalVariable(name: "s", scope: !245, file: !1, line: 51, type: !15)
!277 = !DILocation(line: 51, column: 10, scope: !245)
!278 = !DILocation(line: 51, column: 18, scope: !245)
!279 = !DILocation(line: 51, column: 14, scope: !245)
!280 = !DILocalVariable(name: "hist", scope: !245, file: !1, line: 52, type: !281)
!281 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 128, elements: !282)
!282 = !{!283}
!283 = !DISubrange(count: 4)
!284 = !DILocation(line: 52, column: 7, scope: !245)
!285 = !DILocation(line: 53, column: 10, scope: !245)
!286 = !DILocation(line: 53, column: 3, scope: !245)
!287 = !DILocation(line: 54, column: 8, scope: !245)
!288 = !DILocation(line: 54, column: 3, scope: !245)
!289 = !DILocation(line: 55, column: 8, scope: !245)
!290 = !DILocation(line: 55, column: 3, scope: !245)
!291 = !DILocation(line: 56, column: 10, scope: !245)
!292 = !DILocation(line: 56, column: 12, scope: !245)
!293 = !DILocation(line: 56, column: 3, scope: !245)
