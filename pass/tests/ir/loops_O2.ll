; ModuleID = 'loops.c'
source_filename = "loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@grid = dso_local local_unnamed_addr global [16 x [16 x i32]] zeroinitializer, align 16, !dbg !0
@counts = dso_local local_unnamed_addr global [4 x i32] zeroinitializer, align 16, !dbg !9

; Function Attrs: nofree norecurse nosync nounwind memory(read, argmem: none, inaccessiblemem: none) uwtable
define dso_local i32 @nested(i32 noundef %0) local_unnamed_addr #0 !dbg !26 {
    #dbg_value(i32 %0, !30, !DIExpression(), !37)
    #dbg_value(i32 0, !31, !DIExpression(), !37)
    #dbg_value(i32 0, !32, !DIExpression(), !38)
  %2 = icmp sgt i32 %0, 0, !dbg !39
  br i1 %2, label %3, label %56, !dbg !40

3:                                                ; preds = %1
  %4 = add nsw i32 %0, -17
  %5 = icmp ult i32 %4, -9
  %6 = and i32 %0, 24
  %7 = icmp eq i32 %6, 8
  %8 = icmp eq i32 %6, %0
  %9 = and i32 %0, 3
  %10 = icmp eq i32 %9, 0
  br label %11, !dbg !40

11:                                               ; preds = %3, %58
  %12 = phi i32 [ %60, %58 ], [ 0, %3 ]
  %13 = phi i32 [ %59, %58 ], [ 0, %3 ]
    #dbg_value(i32 %12, !32, !DIExpression(), !38)
    #dbg_value(i32 0, !34, !DIExpression(), !41)
    #dbg_value(i32 %13, !31, !DIExpression(), !37)
  %14 = and i32 %12, 15
  %15 = zext nneg i32 %14 to i64
  br i1 %5, label %16, label %37, !dbg !42

16:                                               ; preds = %51, %11
  %17 = phi i32 [ 0, %11 ], [ %6, %51 ]
  %18 = phi i32 [ %13, %11 ], [ %55, %51 ]
  br i1 %10, label %31, label %19, !dbg !42

19:                                               ; preds = %16, %19
  %20 = phi i32 [ %28, %19 ], [ %17, %16 ]
  %21 = phi i32 [ %27, %19 ], [ %18, %16 ]
  %22 = phi i32 [ %29, %19 ], [ 0, %16 ]
    #dbg_value(i32 %20, !34, !DIExpression(), !41)
    #dbg_value(i32 %21, !31, !DIExpression(), !37)
  %23 = and i32 %20, 15, !dbg !43
  %24 = zext nneg i32 %23 to i64, !dbg !45
  %25 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 %24, !dbg !45
  %26 = load i32, ptr %25, align 4, !dbg !45, !tbaa !46
  %27 = add nsw i32 %26, %21, !dbg !50
    #dbg_value(i32 %27, !31, !DIExpression(), !37)
  %28 = add nuw nsw i32 %20, 1, !dbg !51
    #dbg_value(i32 %28, !34, !DIExpression(), !41)
  %29 = add i32 %22, 1, !dbg !42
  %30 = icmp eq i32 %29, %9, !dbg !42
  br i1 %30, label %31, label %19, !dbg !42, !llvm.loop !52

31:                                               ; preds = %19, %16
  %32 = phi i32 [ poison, %16 ], [ %27, %19 ]
  %33 = phi i32 [ %17, %16 ], [ %28, %19 ]
  %34 = phi i32 [ %18, %16 ], [ %27, %19 ]
  %35 = sub nsw i32 %17, %0, !dbg !42
  %36 = icmp ugt i32 %35, -4, !dbg !42
  br i1 %36, label %58, label %62, !dbg !42

37:                                               ; preds = %11
  %38 = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %13, i64 0, !dbg !42
  %39 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 0, !dbg !45
  %40 = getelementptr inbounds i8, ptr %39, i64 16, !dbg !45
  %41 = load <4 x i32>, ptr %39, align 16, !dbg !45, !tbaa !46
  %42 = load <4 x i32>, ptr %40, align 16, !dbg !45, !tbaa !46
  %43 = add <4 x i32> %41, %38, !dbg !50
  br i1 %7, label %51, label %44, !dbg !51, !llvm.loop !54

44:                                               ; preds = %37
  %45 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 8, !dbg !45
  %46 = getelementptr inbounds i8, ptr %45, i64 16, !dbg !45
  %47 = load <4 x i32>, ptr %45, align 16, !dbg !45, !tbaa !46
  %48 = load <4 x i32>, ptr %46, align 16, !dbg !45, !tbaa !46
  %49 = add <4 x i32> %47, %43, !dbg !50
  %50 = add <4 x i32> %48, %42, !dbg !50
  br label %51

51:                                               ; preds = %44, %37
  %52 = phi <4 x i32> [ %43, %37 ], [ %49, %44 ], !dbg !50
  %53 = phi <4 x i32> [ %42, %37 ], [ %50, %44 ], !dbg !50
  %54 = add <4 x i32> %53, %52, !dbg !42
  %55 = tail call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %54), !dbg !42
  br i1 %8, label %58, label %16, !dbg !42

56:                                               ; preds = %58, %1
  %57 = phi i32 [ 0, %1 ], [ %59, %58 ], !dbg !59
  ret i32 %57, !dbg !60

58:                                               ; preds = %31, %62, %51
  %59 = phi i32 [ %55, %51 ], [ %32, %31 ], [ %87, %62 ], !dbg !50
  %60 = add nuw nsw i32 %12, 1, !dbg !61
    #dbg_value(i32 %60, !32, !DIExpression(), !38)
    #dbg_value(i32 %59, !31, !DIExpression(), !37)
  %61 = icmp eq i32 %60, %0, !dbg !39
  br i1 %61, label %56, label %11, !dbg !40, !llvm.loop !62

62:                                               ; preds = %31, %62
  %63 = phi i32 [ %88, %62 ], [ %33, %31 ]
  %64 = phi i32 [ %87, %62 ], [ %34, %31 ]
    #dbg_value(i32 %63, !34, !DIExpression(), !41)
    #dbg_value(i32 %64, !31, !DIExpression(), !37)
  %65 = and i32 %63, 15, !dbg !43
  %66 = zext nneg i32 %65 to i64, !dbg !45
  %67 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 %66, !dbg !45
  %68 = load i32, ptr %67, align 4, !dbg !45, !tbaa !46
  %69 = add nsw i32 %68, %64, !dbg !50
    #dbg_value(i32 %69, !31, !DIExpression(), !37)
  %70 = add nuw nsw i32 %63, 1, !dbg !51
    #dbg_value(i32 %70, !34, !DIExpression(), !41)
  %71 = and i32 %70, 15, !dbg !43
  %72 = zext nneg i32 %71 to i64, !dbg !45
  %73 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 %72, !dbg !45
  %74 = load i32, ptr %73, align 4, !dbg !45, !tbaa !46
  %75 = add nsw i32 %74, %69, !dbg !50
    #dbg_value(i32 %75, !31, !DIExpression(), !37)
  %76 = add nuw nsw i32 %63, 2, !dbg !51
    #dbg_value(i32 %76, !34, !DIExpression(), !41)
  %77 = and i32 %76, 15, !dbg !43
  %78 = zext nneg i32 %77 to i64, !dbg !45
  %79 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 %78, !dbg !45
  %80 = load i32, ptr %79, align 4, !dbg !45, !tbaa !46
  %81 = add nsw i32 %80, %75, !dbg !50
    #dbg_value(i32 %81, !31, !DIExpression(), !37)
  %82 = add nuw nsw i32 %63, 3, !dbg !51
    #dbg_value(i32 %82, !34, !DIExpression(), !41)
  %83 = and i32 %82, 15, !dbg !43
  %84 = zext nneg i32 %83 to i64, !dbg !45
  %85 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %15, i64 %84, !dbg !45
  %86 = load i32, ptr %85, align 4, !dbg !45, !tbaa !46
  %87 = add nsw i32 %86, %81, !dbg !50
    #dbg_value(i32 %87, !31, !DIExpression(), !37)
  %88 = add nuw nsw i32 %63, 4, !dbg !51
    #dbg_value(i32 %88, !34, !DIExpression(), !41)
  %89 = icmp eq i32 %88, %0, !dbg !64
  br i1 %89, label %58, label %62, !dbg !42, !llvm.loop !65
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i32 @skip_odd(ptr nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #1 !dbg !66 {
    #dbg_value(ptr %0, !72, !DIExpression(), !76)
    #dbg_value(i32 %1, !73, !DIExpression(), !76)
    #dbg_value(i32 0, !74, !DIExpression(), !76)
    #dbg_value(i32 0, !75, !DIExpression(), !76)
  %3 = icmp sgt i32 %1, 0, !dbg !77
  br i1 %3, label %4, label %24, !dbg !78

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64, !dbg !78
  br label %6, !dbg !78

6:                                                ; preds = %4, %19
  %7 = phi i32 [ %22, %19 ], [ 0, %4 ]
  %8 = phi i32 [ %21, %19 ], [ 0, %4 ]
    #dbg_value(i32 %7, !75, !DIExpression(), !76)
    #dbg_value(i32 %8, !74, !DIExpression(), !76)
  %9 = sext i32 %7 to i64, !dbg !78
  br label %10, !dbg !78

10:                                               ; preds = %6, %16
  %11 = phi i64 [ %9, %6 ], [ %17, %16 ]
    #dbg_value(i64 %11, !75, !DIExpression(), !76)
  %12 = getelementptr inbounds i32, ptr %0, i64 %11, !dbg !79
  %13 = load i32, ptr %12, align 4, !dbg !79, !tbaa !46
  %14 = and i32 %13, 1, !dbg !82
  %15 = icmp eq i32 %14, 0, !dbg !82
  br i1 %15, label %19, label %16, !dbg !83

16:                                               ; preds = %10
  %17 = add nsw i64 %11, 1, !dbg !84
    #dbg_value(i64 %17, !75, !DIExpression(), !76)
    #dbg_value(i32 %8, !74, !DIExpression(), !76)
  %18 = icmp slt i64 %17, %5, !dbg !77
  br i1 %18, label %10, label %24, !dbg !78, !llvm.loop !86

19:                                               ; preds = %10
  %20 = trunc nsw i64 %11 to i32, !dbg !88
  %21 = add nsw i32 %13, %8, !dbg !88
    #dbg_value(i32 %21, !74, !DIExpression(), !76)
  %22 = add nsw i32 %20, 1, !dbg !89
    #dbg_value(i32 %22, !75, !DIExpression(), !76)
  %23 = icmp slt i32 %22, %1, !dbg !77
  br i1 %23, label %6, label %24, !dbg !78, !llvm.loop !86

24:                                               ; preds = %19, %16, %2
  %25 = phi i32 [ 0, %2 ], [ %8, %16 ], [ %21, %19 ]
  ret i32 %25, !dbg !90
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, argmem: read, inaccessiblemem: none) uwtable
define dso_local void @classify(ptr nocapture noundef readonly %0, i32 noundef %1) local_unnamed_addr #2 !dbg !91 {
    #dbg_value(ptr %0, !95, !DIExpression(), !99)
    #dbg_value(i32 %1, !96, !DIExpression(), !99)
    #dbg_value(i32 0, !97, !DIExpression(), !100)
    #dbg_value(i32 0, !97, !DIExpression(), !100)
  %3 = icmp sgt i32 %1, 0, !dbg !101
  br i1 %3, label %4, label %10, !dbg !103

4:                                                ; preds = %2
  %5 = load i32, ptr getelementptr inbounds (i8, ptr @counts, i64 12), align 4, !tbaa !46
  %6 = load i32, ptr @counts, align 16, !tbaa !46
  %7 = load i32, ptr getelementptr inbounds (i8, ptr @counts, i64 4), align 4, !tbaa !46
  %8 = load i32, ptr getelementptr inbounds (i8, ptr @counts, i64 8), align 8, !tbaa !46
  %9 = zext nneg i32 %1 to i64, !dbg !101
  br label %11, !dbg !103

10:                                               ; preds = %27, %2
  ret void, !dbg !104

11:                                               ; preds = %4, %27
  %12 = phi i64 [ 0, %4 ], [ %32, %27 ]
  %13 = phi i32 [ %8, %4 ], [ %31, %27 ]
  %14 = phi i32 [ %7, %4 ], [ %30, %27 ]
  %15 = phi i32 [ %6, %4 ], [ %29, %27 ]
  %16 = phi i32 [ %5, %4 ], [ %28, %27 ]
    #dbg_value(i64 %12, !97, !DIExpression(), !100)
  %17 = getelementptr inbounds i32, ptr %0, i64 %12, !dbg !105
  %18 = load i32, ptr %17, align 4, !dbg !105, !tbaa !46
  switch i32 %18, label %25 [
    i32 0, label %19
    i32 1, label %21
    i32 7, label %23
  ], !dbg !107

19:                                               ; preds = %11
  %20 = add nsw i32 %15, 1, !dbg !108
  store i32 %20, ptr @counts, align 16, !dbg !108, !tbaa !46
  br label %27, !dbg !110

21:                                               ; preds = %11
  %22 = add nsw i32 %14, 1, !dbg !111
  store i32 %22, ptr getelementptr inbounds (i8, ptr @counts, i64 4), align 4, !dbg !111, !tbaa !46
  br label %27, !dbg !112

23:                                               ; preds = %11
  %24 = add nsw i32 %13, 1, !dbg !113
  store i32 %24, ptr getelementptr inbounds (i8, ptr @counts, i64 8), align 8, !dbg !113, !tbaa !46
  br label %27, !dbg !114

25:                                               ; preds = %11
  %26 = add nsw i32 %16, 1, !dbg !115
  store i32 %26, ptr getelementptr inbounds (i8, ptr @counts, i64 12), align 4, !dbg !115, !tbaa !46
  br label %27, !dbg !116

27:                                               ; preds = %19, %21, %23, %25
  %28 = phi i32 [ %16, %19 ], [ %16, %21 ], [ %16, %23 ], [ %26, %25 ]
  %29 = phi i32 [ %20, %19 ], [ %15, %21 ], [ %15, %23 ], [ %15, %25 ]
  %30 = phi i32 [ %14, %19 ], [ %22, %21 ], [ %14, %23 ], [ %14, %25 ]
  %31 = phi i32 [ %13, %19 ], [ %13, %21 ], [ %24, %23 ], [ %13, %25 ]
  %32 = add nuw nsw i64 %12, 1, !dbg !117
    #dbg_value(i64 %32, !97, !DIExpression(), !100)
  %33 = icmp eq i64 %32, %9, !dbg !101
  br i1 %33, label %10, label %11, !dbg !103, !llvm.loop !118
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) uwtable
define dso_local void @copy(ptr nocapture noundef %0, ptr nocapture noundef readonly %1, i32 noundef %2) local_unnamed_addr #3 !dbg !120 {
    #dbg_assign(i1 undef, !128, !DIExpression(DW_OP_LLVM_fragment, 0, 96), !132, ptr undef, !DIExpression(), !133)
    #dbg_assign(i1 undef, !128, !DIExpression(DW_OP_LLVM_fragment, 128, 128), !134, ptr undef, !DIExpression(), !133)
    #dbg_value(ptr %0, !125, !DIExpression(), !133)
    #dbg_value(ptr %1, !126, !DIExpression(), !133)
    #dbg_value(i32 %2, !127, !DIExpression(), !133)
    #dbg_assign(i8 0, !128, !DIExpression(DW_OP_LLVM_fragment, 0, 96), !135, ptr undef, !DIExpression(), !133)
    #dbg_value(i32 0, !128, !DIExpression(DW_OP_LLVM_fragment, 96, 32), !133)
    #dbg_assign(i8 0, !128, !DIExpression(DW_OP_LLVM_fragment, 128, 128), !136, ptr undef, !DIExpression(), !133)
  %4 = sext i32 %2 to i64, !dbg !137
  %5 = shl nsw i64 %4, 2, !dbg !138
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 4 %0, ptr align 4 %1, i64 %5, i1 false), !dbg !139
  %6 = getelementptr inbounds i8, ptr %0, i64 4, !dbg !140
  tail call void @llvm.memmove.p0.p0.i64(ptr noundef nonnull align 4 dereferenceable(32) %6, ptr noundef nonnull align 4 dereferenceable(32) %0, i64 32, i1 false), !dbg !141
  store i32 0, ptr %0, align 4, !dbg !142, !tbaa !46
  ret void, !dbg !143
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #4

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memmove.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg) #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>) #5

attributes #0 = { nofree norecurse nosync nounwind memory(read, argmem: none, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree norecurse nosync nounwind memory(argmem: read) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nofree norecurse nosync nounwind memory(readwrite, argmem: read, inaccessiblemem: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!18, !19, !20, !21, !22, !23, !24}
!llvm.ident = !{!25}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "grid", scope: !2, file: !3, line: 6, type: !15, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !8, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "loops.c", directory: "/work/main/pass/tests/ir", checksumkind: CSK_MD5, checksum: "f5e96933e0862711e1d537b58a91f860")
!4 = !{!5}
!5 = !DIDerivedType(tag: DW_TAG_typedef, name: "size_t", file: !6, line: 18, baseType: !7)
!6 = !DIFile(filename: "/usr/lib/llvm-19/lib/clang/19/include/__stddef_size_t.h", directory: "", checksumkind: CSK_MD5, checksum: "2c44e821a2b1951cde2eb0fb2e656867")
!7 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!8 = !{!0, !9}
!9 = !DIGlobalVariableExpression(var: !10, expr: !DIExpression())
!10 = distinct !DIGlobalVariable(name: "counts", scope: !2, file: !3, line: 7, type: !11, isLocal: false, isDefinition: true)
!11 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 128, elements: !13)
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!14}
!14 = !DISubrange(count: 4)
!15 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 8192, elements: !16)
!16 = !{!17, !17}
!17 = !DISubrange(count: 16)
!18 = !{i32 7, !"Dwarf Version", i32 5}
!19 = !{i32 2, !"Debug Info Version", i32 3}
!20 = !{i32 1, !"wchar_size", i32 4}
!21 = !{i32 8, !"PIC Level", i32 2}
!22 = !{i32 7, !"PIE Level", i32 2}
!23 = !{i32 7, !"uwtable", i32 2}
!24 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!25 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!26 = distinct !DISubprogram(name: "nested", scope: !3, file: !3, line: 9, type: !27, scopeLine: 9, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !29)
!27 = !DISubroutineType(types: !28)
!28 = !{!12, !12}
!29 = !{!30, !31, !32, !34}
!30 = !DILocalVariable(name: "n", arg: 1, scope: !26, file: !3, line: 9, type: !12)
!31 = !DILocalVariable(name: "s", scope: !26, file: !3, line: 10, type: !12)
!32 = !DILocalVariable(name: "i", scope: !33, file: !3, line: 11, type: !12)
!33 = distinct !DILexicalBlock(scope: !26, file: !3, line: 11, column: 3)
!34 = !DILocalVariable(name: "j", scope: !35, file: !3, line: 12, type: !12)
!35 = distinct !DILexicalBlock(scope: !36, file: !3, line: 12, column: 5)
!36 = distinct !DILexicalBlock(scope: !33, file: !3, line: 11, column: 3)
!37 = !DILocation(line: 0, scope: !26)
!38 = !DILocation(line: 0, scope: !33)
!39 = !DILocation(line: 11, column: 21, scope: !36)
!40 = !DILocation(line: 11, column: 3, scope: !33)
!41 = !DILocation(line: 0, scope: !35)
!42 = !DILocation(line: 12, column: 5, scope: !35)
!43 = !DILocation(line: 13, column: 27, scope: !44)
!44 = distinct !DILexicalBlock(scope: !35, file: !3, line: 12, column: 5)
!45 = !DILocation(line: 13, column: 12, scope: !44)
!46 = !{!47, !47, i64 0}
!47 = !{!"int", !48, i64 0}
!48 = !{!"omnipotent char", !49, i64 0}
!49 = !{!"Simple C/C++ TBAA"}
!50 = !DILocation(line: 13, column: 9, scope: !44)
!51 = !DILocation(line: 12, column: 29, scope: !44)
!52 = distinct !{!52, !53}
!53 = !{!"llvm.loop.unroll.disable"}
!54 = distinct !{!54, !42, !55, !56, !57, !58}
!55 = !DILocation(line: 13, column: 31, scope: !35)
!56 = !{!"llvm.loop.mustprogress"}
!57 = !{!"llvm.loop.isvectorized", i32 1}
!58 = !{!"llvm.loop.unroll.runtime.disable"}
!59 = !DILocation(line: 10, column: 7, scope: !26)
!60 = !DILocation(line: 14, column: 3, scope: !26)
!61 = !DILocation(line: 11, column: 27, scope: !36)
!62 = distinct !{!62, !40, !63, !56}
!63 = !DILocation(line: 13, column: 31, scope: !33)
!64 = !DILocation(line: 12, column: 23, scope: !44)
!65 = distinct !{!65, !42, !55, !56, !57}
!66 = distinct !DISubprogram(name: "skip_odd", scope: !3, file: !3, line: 17, type: !67, scopeLine: 17, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !71)
!67 = !DISubroutineType(types: !68)
!68 = !{!12, !69, !12}
!69 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !70, size: 64)
!70 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !12)
!71 = !{!72, !73, !74, !75}
!72 = !DILocalVariable(name: "v", arg: 1, scope: !66, file: !3, line: 17, type: !69)
!73 = !DILocalVariable(name: "n", arg: 2, scope: !66, file: !3, line: 17, type: !12)
!74 = !DILocalVariable(name: "s", scope: !66, file: !3, line: 18, type: !12)
!75 = !DILocalVariable(name: "i", scope: !66, file: !3, line: 19, type: !12)
!76 = !DILocation(line: 0, scope: !66)
!77 = !DILocation(line: 20, column: 12, scope: !66)
!78 = !DILocation(line: 20, column: 3, scope: !66)
!79 = !DILocation(line: 21, column: 9, scope: !80)
!80 = distinct !DILexicalBlock(scope: !81, file: !3, line: 21, column: 9)
!81 = distinct !DILexicalBlock(scope: !66, file: !3, line: 20, column: 17)
!82 = !DILocation(line: 21, column: 14, scope: !80)
!83 = !DILocation(line: 21, column: 9, scope: !81)
!84 = !DILocation(line: 22, column: 8, scope: !85)
!85 = distinct !DILexicalBlock(scope: !80, file: !3, line: 21, column: 19)
!86 = distinct !{!86, !78, !87, !56}
!87 = !DILocation(line: 27, column: 3, scope: !66)
!88 = !DILocation(line: 25, column: 7, scope: !81)
!89 = !DILocation(line: 26, column: 6, scope: !81)
!90 = !DILocation(line: 28, column: 3, scope: !66)
!91 = distinct !DISubprogram(name: "classify", scope: !3, file: !3, line: 31, type: !92, scopeLine: 31, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !94)
!92 = !DISubroutineType(types: !93)
!93 = !{null, !69, !12}
!94 = !{!95, !96, !97}
!95 = !DILocalVariable(name: "v", arg: 1, scope: !91, file: !3, line: 31, type: !69)
!96 = !DILocalVariable(name: "n", arg: 2, scope: !91, file: !3, line: 31, type: !12)
!97 = !DILocalVariable(name: "i", scope: !98, file: !3, line: 32, type: !12)
!98 = distinct !DILexicalBlock(scope: !91, file: !3, line: 32, column: 3)
!99 = !DILocation(line: 0, scope: !91)
!100 = !DILocation(line: 0, scope: !98)
!101 = !DILocation(line: 32, column: 21, scope: !102)
!102 = distinct !DILexicalBlock(scope: !98, file: !3, line: 32, column: 3)
!103 = !DILocation(line: 32, column: 3, scope: !98)
!104 = !DILocation(line: 40, column: 1, scope: !91)
!105 = !DILocation(line: 33, column: 13, scope: !106)
!106 = distinct !DILexicalBlock(scope: !102, file: !3, line: 32, column: 31)
!107 = !DILocation(line: 33, column: 5, scope: !106)
!108 = !DILocation(line: 34, column: 22, scope: !109)
!109 = distinct !DILexicalBlock(scope: !106, file: !3, line: 33, column: 19)
!110 = !DILocation(line: 34, column: 26, scope: !109)
!111 = !DILocation(line: 35, column: 22, scope: !109)
!112 = !DILocation(line: 35, column: 26, scope: !109)
!113 = !DILocation(line: 36, column: 22, scope: !109)
!114 = !DILocation(line: 36, column: 26, scope: !109)
!115 = !DILocation(line: 37, column: 23, scope: !109)
!116 = !DILocation(line: 37, column: 27, scope: !109)
!117 = !DILocation(line: 32, column: 27, scope: !102)
!118 = distinct !{!118, !103, !119, !56}
!119 = !DILocation(line: 39, column: 3, scope: !98)
!120 = distinct !DISubprogram(name: "copy", scope: !3, file: !3, line: 42, type: !121, scopeLine: 42, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !124)
!121 = !DISubroutineType(types: !122)
!122 = !{null, !123, !69, !12}
!123 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12, size: 64)
!124 = !{!125, !126, !127, !128}
!125 = !DILocalVariable(name: "dst", arg: 1, scope: !120, file: !3, line: 42, type: !123)
!126 = !DILocalVariable(name: "src", arg: 2, scope: !120, file: !3, line: 42, type: !69)
!127 = !DILocalVariable(name: "n", arg: 3, scope: !120, file: !3, line: 42, type: !12)
!128 = !DILocalVariable(name: "tmp", scope: !120, file: !3, line: 43, type: !129)
!129 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 256, elements: !130)
!130 = !{!131}
!131 = !DISubrange(count: 8)
!132 = distinct !DIAssignID()
!133 = !DILocation(line: 0, scope: !120)
!134 = distinct !DIAssignID()
!135 = distinct !DIAssignID()
!136 = distinct !DIAssignID()
!137 = !DILocation(line: 45, column: 20, scope: !120)
!138 = !DILocation(line: 45, column: 30, scope: !120)
!139 = !DILocation(line: 45, column: 3, scope: !120)
!140 = !DILocation(line: 46, column: 15, scope: !120)
!141 = !DILocation(line: 46, column: 3, scope: !120)
!142 = !DILocation(line: 47, column: 10, scope: !120)
!143 = !DILocation(line: 48, column: 1, scope: !120)
