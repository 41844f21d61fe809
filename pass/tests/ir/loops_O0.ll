; ModuleID = 'loops.c'
source_filename = "loops.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@grid = dso_local global [16 x [16 x i32]] zeroinitializer, align 16, !dbg !0
@counts = dso_local global [4 x i32] zeroinitializer, align 16, !dbg !9

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @nested(i32 noundef %0) #0 !dbg !26 {
  %2 = alloca i32, align 4
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !30, !DIExpression(), !31)
    #dbg_declare(ptr %3, !32, !DIExpression(), !33)
  store i32 0, ptr %3, align 4, !dbg !33
    #dbg_declare(ptr %4, !34, !DIExpression(), !36)
  store i32 0, ptr %4, align 4, !dbg !36
  br label %6, !dbg !37

6:                                                ; preds = %31, %1
  %7 = load i32, ptr %4, align 4, !dbg !38
  %8 = load i32, ptr %2, align 4, !dbg !40
  %9 = icmp slt i32 %7, %8, !dbg !41
  br i1 %9, label %10, label %34, !dbg !42

10:                                               ; preds = %6
    #dbg_declare(ptr %5, !43, !DIExpression(), !45)
  store i32 0, ptr %5, align 4, !dbg !45
  br label %11, !dbg !46

11:                                               ; preds = %27, %10
  %12 = load i32, ptr %5, align 4, !dbg !47
  %13 = load i32, ptr %2, align 4, !dbg !49
  %14 = icmp slt i32 %12, %13, !dbg !50
  br i1 %14, label %15, label %30, !dbg !51

15:                                               ; preds = %11
  %16 = load i32, ptr %4, align 4, !dbg !52
  %17 = and i32 %16, 15, !dbg !53
  %18 = sext i32 %17 to i64, !dbg !54
  %19 = getelementptr inbounds [16 x [16 x i32]], ptr @grid, i64 0, i64 %18, !dbg !54
  %20 = load i32, ptr %5, align 4, !dbg !55
  %21 = and i32 %20, 15, !dbg !56
  %22 = sext i32 %21 to i64, !dbg !54
  %23 = getelementptr inbounds [16 x i32], ptr %19, i64 0, i64 %22, !dbg !54
  %24 = load i32, ptr %23, align 4, !dbg !54
  %25 = load i32, ptr %3, align 4, !dbg !57
  %26 = add nsw i32 %25, %24, !dbg !57
  store i32 %26, ptr %3, align 4, !dbg !57
  br label %27, !dbg !58

27:                                               ; preds = %15
  %28 = load i32, ptr %5, align 4, !dbg !59
  %29 = add nsw i32 %28, 1, !dbg !59
  store i32 %29, ptr %5, align 4, !dbg !59
  br label %11, !dbg !60, !llvm.loop !61

30:                                               ; preds = %11
  br label %31, !dbg !62

31:                                               ; preds = %30
  %32 = load i32, ptr %4, align 4, !dbg !64
  %33 = add nsw i32 %32, 1, !dbg !64
  store i32 %33, ptr %4, align 4, !dbg !64
  br label %6, !dbg !65, !llvm.loop !66

34:                                               ; preds = %6
  %35 = load i32, ptr %3, align 4, !dbg !68
  ret i32 %35, !dbg !69
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @skip_odd(ptr noundef %0, i32 noundef %1) #0 !dbg !70 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !75, !DIExpression(), !76)
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !77, !DIExpression(), !78)
    #dbg_declare(ptr %5, !79, !DIExpression(), !80)
  store i32 0, ptr %5, align 4, !dbg !80
    #dbg_declare(ptr %6, !81, !DIExpression(), !82)
  store i32 0, ptr %6, align 4, !dbg !82
  br label %7, !dbg !83

7:                                                ; preds = %22, %19, %2
  %8 = load i32, ptr %6, align 4, !dbg !84
  %9 = load i32, ptr %4, align 4, !dbg !85
  %10 = icmp slt i32 %8, %9, !dbg !86
  br i1 %10, label %11, label %32, !dbg !83

11:                                               ; preds = %7
  %12 = load ptr, ptr %3, align 8, !dbg !87
  %13 = load i32, ptr %6, align 4, !dbg !90
  %14 = sext i32 %13 to i64, !dbg !87
  %15 = getelementptr inbounds i32, ptr %12, i64 %14, !dbg !87
  %16 = load i32, ptr %15, align 4, !dbg !87
  %17 = and i32 %16, 1, !dbg !91
  %18 = icmp ne i32 %17, 0, !dbg !91
  br i1 %18, label %19, label %22, !dbg !92

19:                                               ; preds = %11
  %20 = load i32, ptr %6, align 4, !dbg !93
  %21 = add nsw i32 %20, 1, !dbg !93
  store i32 %21, ptr %6, align 4, !dbg !93
  br label %7, !dbg !95, !llvm.loop !96

22:                                               ; preds = %11
  %23 = load ptr, ptr %3, align 8, !dbg !98
  %24 = load i32, ptr %6, align 4, !dbg !99
  %25 = sext i32 %24 to i64, !dbg !98
  %26 = getelementptr inbounds i32, ptr %23, i64 %25, !dbg !98
  %27 = load i32, ptr %26, align 4, !dbg !98
  %28 = load i32, ptr %5, align 4, !dbg !100
  %29 = add nsw i32 %28, %27, !dbg !100
  store i32 %29, ptr %5, align 4, !dbg !100
  %30 = load i32, ptr %6, align 4, !dbg !101
  %31 = add nsw i32 %30, 1, !dbg !101
  store i32 %31, ptr %6, align 4, !dbg !101
  br label %7, !dbg !83, !llvm.loop !96

32:                                               ; preds = %7
  %33 = load i32, ptr %5, align 4, !dbg !102
  ret i32 %33, !dbg !103
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @classify(ptr noundef %0, i32 noundef %1) #0 !dbg !104 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !107, !DIExpression(), !108)
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !109, !DIExpression(), !110)
    #dbg_declare(ptr %5, !111, !DIExpression(), !113)
  store i32 0, ptr %5, align 4, !dbg !113
  br label %6, !dbg !114

6:                                                ; preds = %29, %2
  %7 = load i32, ptr %5, align 4, !dbg !115
  %8 = load i32, ptr %4, align 4, !dbg !117
  %9 = icmp slt i32 %7, %8, !dbg !118
  br i1 %9, label %10, label %32, !dbg !119

10:                                               ; preds = %6
  %11 = load ptr, ptr %3, align 8, !dbg !120
  %12 = load i32, ptr %5, align 4, !dbg !122
  %13 = sext i32 %12 to i64, !dbg !120
  %14 = getelementptr inbounds i32, ptr %11, i64 %13, !dbg !120
  %15 = load i32, ptr %14, align 4, !dbg !120
  switch i32 %15, label %25 [
    i32 0, label %16
    i32 1, label %19
    i32 7, label %22
  ], !dbg !123

16:                                               ; preds = %10
  %17 = load i32, ptr @counts, align 16, !dbg !124
  %18 = add nsw i32 %17, 1, !dbg !124
  store i32 %18, ptr @counts, align 16, !dbg !124
  br label %28, !dbg !126

19:                                               ; preds = %10
  %20 = load i32, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 1), align 4, !dbg !127
  %21 = add nsw i32 %20, 1, !dbg !127
  store i32 %21, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 1), align 4, !dbg !127
  br label %28, !dbg !128

22:                                               ; preds = %10
  %23 = load i32, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 2), align 8, !dbg !129
  %24 = add nsw i32 %23, 1, !dbg !129
  store i32 %24, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 2), align 8, !dbg !129
  br label %28, !dbg !130

25:                                               ; preds = %10
  %26 = load i32, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 3), align 4, !dbg !131
  %27 = add nsw i32 %26, 1, !dbg !131
  store i32 %27, ptr getelementptr inbounds ([4 x i32], ptr @counts, i64 0, i64 3), align 4, !dbg !131
  br label %28, !dbg !132

28:                                               ; preds = %25, %22, %19, %16
  br label %29, !dbg !133

29:                                               ; preds = %28
  %30 = load i32, ptr %5, align 4, !dbg !134
  %31 = add nsw i32 %30, 1, !dbg !134
  store i32 %31, ptr %5, align 4, !dbg !134
  br label %6, !dbg !135, !llvm.loop !136

32:                                               ; preds = %6
  ret void, !dbg !138
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @copy(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 !dbg !139 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca [8 x i32], align 16
  store ptr %0, ptr %4, align 8
    #dbg_declare(ptr %4, !143, !DIExpression(), !144)
  store ptr %1, ptr %5, align 8
    #dbg_declare(ptr %5, !145, !DIExpression(), !146)
  store i32 %2, ptr %6, align 4
    #dbg_declare(ptr %6, !147, !DIExpression(), !148)
    #dbg_declare(ptr %7, !149, !DIExpression(), !153)
  %8 = getelementptr inbounds [8 x i32], ptr %7, i64 0, i64 0, !dbg !154
  call void @llvm.memset.p0.i64(ptr align 16 %8, i8 0, i64 32, i1 false), !dbg !154
  %9 = load ptr, ptr %4, align 8, !dbg !155
  %10 = load ptr, ptr %5, align 8, !dbg !156
  %11 = load i32, ptr %6, align 4, !dbg !157
  %12 = sext i32 %11 to i64, !dbg !158
  %13 = mul i64 %12, 4, !dbg !159
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %9, ptr align 4 %10, i64 %13, i1 false), !dbg !160
  %14 = load ptr, ptr %4, align 8, !dbg !161
  %15 = getelementptr inbounds i32, ptr %14, i64 1, !dbg !162
  %16 = load ptr, ptr %4, align 8, !dbg !163
  call void @llvm.memmove.p0.p0.i64(ptr align 4 %15, ptr align 4 %16, i64 32, i1 false), !dbg !164
  %17 = getelementptr inbounds [8 x i32], ptr %7, i64 0, i64 3, !dbg !165
  %18 = load i32, ptr %17, align 4, !dbg !165
  %19 = load ptr, ptr %4, align 8, !dbg !166
  %20 = getelementptr inbounds i32, ptr %19, i64 0, !dbg !166
  store i32 %18, ptr %20, align 4, !dbg !167
  ret void, !dbg !168
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memmove.p0.p0.i64(ptr nocapture writeonly, ptr nocapture readonly, i64, i1 immarg) #2

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!18, !19, !20, !21, !22, !23, !24}
!llvm.ident = !{!25}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "grid", scope: !2, file: !3, line: 6, type: !15, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !8, splitDebugInlining: false, nameTableKind: None)
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
!24 = !{i32 7, !"frame-pointer", i32 2}
!25 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!26 = distinct !DISubprogram(name: "nested", scope: !3, file: !3, line: 9, type: !27, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!27 = !DISubroutineType(types: !28)
!28 = !{!12, !12}
!29 = !{}
!30 = !DILocalVariable(name: "n", arg: 1, scope: !26, file: !3, line: 9, type: !12)
!31 = !DILocation(line: 9, column: 16, scope: !26)
!32 = !DILocalVariable(name: "s", scope: !26, file: !3, line: 10, type: !12)
!33 = !DILocation(line: 10, column: 7, scope: !26)
!34 = !DILocalVariable(name: "i", scope: !35, file: !3, line: 11, type: !12)
!35 = distinct !DILexicalBlock(scope: !26, file: !3, line: 11, column: 3)
!36 = !DILocation(line: 11, column: 12, scope: !35)
!37 = !DILocation(line: 11, column: 8, scope: !35)
!38 = !DILocation(line: 11, column: 19, scope: !39)
!39 = distinct !DILexicalBlock(scope: !35, file: !3, line: 11, column: 3)
!40 = !DILocation(line: 11, column: 23, scope: !39)
!41 = !DILocation(line: 11, column: 21, scope: !39)
!42 = !DILocation(line: 11, column: 3, scope: !35)
!43 = !DILocalVariable(name: "j", scope: !44, file: !3, line: 12, type: !12)
!44 = distinct !DILexicalBlock(scope: !39, file: !3, line: 12, column: 5)
!45 = !DILocation(line: 12, column: 14, scope: !44)
!46 = !DILocation(line: 12, column: 10, scope: !44)
!47 = !DILocation(line: 12, column: 21, scope: !48)
!48 = distinct !DILexicalBlock(scope: !44, file: !3, line: 12, column: 5)
!49 = !DILocation(line: 12, column: 25, scope: !48)
!50 = !DILocation(line: 12, column: 23, scope: !48)
!51 = !DILocation(line: 12, column: 5, scope: !44)
!52 = !DILocation(line: 13, column: 17, scope: !48)
!53 = !DILocation(line: 13, column: 19, scope: !48)
!54 = !DILocation(line: 13, column: 12, scope: !48)
!55 = !DILocation(line: 13, column: 25, scope: !48)
!56 = !DILocation(line: 13, column: 27, scope: !48)
!57 = !DILocation(line: 13, column: 9, scope: !48)
!58 = !DILocation(line: 13, column: 7, scope: !48)
!59 = !DILocation(line: 12, column: 29, scope: !48)
!60 = !DILocation(line: 12, column: 5, scope: !48)
!61 = distinct !{!61, !51, !62, !63}
!62 = !DILocation(line: 13, column: 31, scope: !44)
!63 = !{!"llvm.loop.mustprogress"}
!64 = !DILocation(line: 11, column: 27, scope: !39)
!65 = !DILocation(line: 11, column: 3, scope: !39)
!66 = distinct !{!66, !42, !67, !63}
!67 = !DILocation(line: 13, column: 31, scope: !35)
!68 = !DILocation(line: 14, column: 10, scope: !26)
!69 = !DILocation(line: 14, column: 3, scope: !26)
!70 = distinct !DISubprogram(name: "skip_odd", scope: !3, file: !3, line: 17, type: !71, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!71 = !DISubroutineType(types: !72)
!72 = !{!12, !73, !12}
!73 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !74, size: 64)
!74 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !12)
!75 = !DILocalVariable(name: "v", arg: 1, scope: !70, file: !3, line: 17, type: !73)
!76 = !DILocation(line: 17, column: 25, scope: !70)
!77 = !DILocalVariable(name: "n", arg: 2, scope: !70, file: !3, line: 17, type: !12)
!78 = !DILocation(line: 17, column: 32, scope: !70)
!79 = !DILocalVariable(name: "s", scope: !70, file: !3, line: 18, type: !12)
!80 = !DILocation(line: 18, column: 7, scope: !70)
!81 = !DILocalVariable(name: "i", scope: !70, file: !3, line: 19, type: !12)
!82 = !DILocation(line: 19, column: 7, scope: !70)
!83 = !DILocation(line: 20, column: 3, scope: !70)
!84 = !DILocation(line: 20, column: 10, scope: !70)
!85 = !DILocation(line: 20, column: 14, scope: !70)
!86 = !DILocation(line: 20, column: 12, scope: !70)
!87 = !DILocation(line: 21, column: 9, scope: !88)
!88 = distinct !DILexicalBlock(scope: !89, file: !3, line: 21, column: 9)
!89 = distinct !DILexicalBlock(scope: !70, file: !3, line: 20, column: 17)
!90 = !DILocation(line: 21, column: 11, scope: !88)
!91 = !DILocation(line: 21, column: 14, scope: !88)
!92 = !DILocation(line: 21, column: 9, scope: !89)
!93 = !DILocation(line: 22, column: 8, scope: !94)
!94 = distinct !DILexicalBlock(scope: !88, file: !3, line: 21, column: 19)
!95 = !DILocation(line: 23, column: 7, scope: !94)
!96 = distinct !{!96, !83, !97, !63}
!97 = !DILocation(line: 27, column: 3, scope: !70)
!98 = !DILocation(line: 25, column: 10, scope: !89)
!99 = !DILocation(line: 25, column: 12, scope: !89)
!100 = !DILocation(line: 25, column: 7, scope: !89)
!101 = !DILocation(line: 26, column: 6, scope: !89)
!102 = !DILocation(line: 28, column: 10, scope: !70)
!103 = !DILocation(line: 28, column: 3, scope: !70)
!104 = distinct !DISubprogram(name: "classify", scope: !3, file: !3, line: 31, type: !105, scopeLine: 31, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!105 = !DISubroutineType(types: !106)
!106 = !{null, !73, !12}
!107 = !DILocalVariable(name: "v", arg: 1, scope: !104, file: !3, line: 31, type: !73)
!108 = !DILocation(line: 31, column: 26, scope: !104)
!109 = !DILocalVariable(name: "n", arg: 2, scope: !104, file: !3, line: 31, type: !12)
!110 = !DILocation(line: 31, column: 33, scope: !104)
!111 = !DILocalVariable(name: "i", scope: !112, file: !3, line: 32, type: !12)
!112 = distinct !DILexicalBlock(scope: !104, file: !3, line: 32, column: 3)
!113 = !DILocation(line: 32, column: 12, scope: !112)
!114 = !DILocation(line: 32, column: 8, scope: !112)
!115 = !DILocation(line: 32, column: 19, scope: !116)
!116 = distinct !DILexicalBlock(scope: !112, file: !3, line: 32, column: 3)
!117 = !DILocation(line: 32, column: 23, scope: !116)
!118 = !DILocation(line: 32, column: 21, scope: !116)
!119 = !DILocation(line: 32, column: 3, scope: !112)
!120 = !DILocation(line: 33, column: 13, scope: !121)
!121 = distinct !DILexicalBlock(scope: !116, file: !3, line: 32, column: 31)
!122 = !DILocation(line: 33, column: 15, scope: !121)
!123 = !DILocation(line: 33, column: 5, scope: !121)
!124 = !DILocation(line: 34, column: 22, scope: !125)
!125 = distinct !DILexicalBlock(scope: !121, file: !3, line: 33, column: 19)
!126 = !DILocation(line: 34, column: 26, scope: !125)
!127 = !DILocation(line: 35, column: 22, scope: !125)
!128 = !DILocation(line: 35, column: 26, scope: !125)
!129 = !DILocation(line: 36, column: 22, scope: !125)
!130 = !DILocation(line: 36, column: 26, scope: !125)
!131 = !DILocation(line: 37, column: 23, scope: !125)
!132 = !DILocation(line: 37, column: 27, scope: !125)
!133 = !DILocation(line: 39, column: 3, scope: !121)
!134 = !DILocation(line: 32, column: 27, scope: !116)
!135 = !DILocation(line: 32, column: 3, scope: !116)
!136 = distinct !{!136, !119, !137, !63}
!137 = !DILocation(line: 39, column: 3, scope: !112)
!138 = !DILocation(line: 40, column: 1, scope: !104)
!139 = distinct !DISubprogram(name: "copy", scope: !3, file: !3, line: 42, type: !140, scopeLine: 42, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !29)
!140 = !DISubroutineType(types: !141)
!141 = !{null, !142, !73, !12}
!142 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12, size: 64)
!143 = !DILocalVariable(name: "dst", arg: 1, scope: !139, file: !3, line: 42, type: !142)
!144 = !DILocation(line: 42, column: 16, scope: !139)
!145 = !DILocalVariable(name: "src", arg: 2, scope: !139, file: !3, line: 42, type: !73)
!146 = !DILocation(line: 42, column: 32, scope: !139)
!147 = !DILocalVariable(name: "n", arg: 3, scope: !139, file: !3, line: 42, type: !12)
!148 = !DILocation(line: 42, column: 41, scope: !139)
!149 = !DILocalVariable(name: "tmp", scope: !139, file: !3, line: 43, type: !150)
!150 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 256, elements: !151)
!151 = !{!152}
!152 = !DISubrange(count: 8)
!153 = !DILocation(line: 43, column: 7, scope: !139)
!154 = !DILocation(line: 44, column: 3, scope: !139)
!155 = !DILocation(line: 45, column: 10, scope: !139)
!156 = !DILocation(line: 45, column: 15, scope: !139)
!157 = !DILocation(line: 45, column: 28, scope: !139)
!158 = !DILocation(line: 45, column: 20, scope: !139)
!159 = !DILocation(line: 45, column: 30, scope: !139)
!160 = !DILocation(line: 45, column: 3, scope: !139)
!161 = !DILocation(line: 46, column: 11, scope: !139)
!162 = !DILocation(line: 46, column: 15, scope: !139)
!163 = !DILocation(line: 46, column: 20, scope: !139)
!164 = !DILocation(line: 46, column: 3, scope: !139)
!165 = !DILocation(line: 47, column: 12, scope: !139)
!166 = !DILocation(line: 47, column: 3, scope: !139)
!167 = !DILocation(line: 47, column: 10, scope: !139)
!168 = !DILocation(line: 48, column: 1, scope: !139)
