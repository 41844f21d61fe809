//! Finding clang and the runtime library, with the environment given explicitly.

mod common;

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{scratch, write};
use rdcc::tools::{find_clang_with, find_runtime_with};

fn executable(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = write(dir, name, "#!/bin/sh\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn path_of(dirs: &[&Path]) -> Option<OsString> {
    Some(std::env::join_paths(dirs).unwrap())
}

#[test]
fn clang_19_is_found_on_path_in_order() {
    let dir = scratch();
    let (first, second) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&first).unwrap();
    std::fs::create_dir(&second).unwrap();
    // Not executable: skipped, as a shell would.
    write(&first, "clang-19", "");
    let expected = executable(&second, "clang-19");
    assert_eq!(
        find_clang_with(None, path_of(&[&first, &second])).unwrap(),
        expected
    );
}

#[test]
fn rdcc_clang_wins_and_may_be_a_name_on_path() {
    let dir = scratch();
    executable(dir.path(), "clang-19");
    let mine = executable(dir.path(), "my-clang");
    let path = path_of(&[dir.path()]);
    assert_eq!(
        find_clang_with(Some(mine.clone().into()), path.clone()).unwrap(),
        mine
    );
    assert_eq!(
        find_clang_with(Some("my-clang".into()), path.clone()).unwrap(),
        mine
    );
    let err = find_clang_with(Some("no-such-clang".into()), path).unwrap_err();
    assert_eq!(
        format!("{err:#}"),
        "RDCC_CLANG names no-such-clang, which is not on PATH"
    );
    // Empty means unset.
    assert_eq!(
        find_clang_with(Some("".into()), path_of(&[dir.path()])).unwrap(),
        dir.path().join("clang-19")
    );
}

#[test]
fn without_clang_on_path_the_llvm_19_install_is_used() {
    let dir = scratch();
    match find_clang_with(None, path_of(&[dir.path()])) {
        Ok(clang) => assert_eq!(clang, Path::new(rdcc::tools::FALLBACK_CLANG)),
        Err(err) => {
            assert!(!Path::new(rdcc::tools::FALLBACK_CLANG).exists());
            assert!(
                format!("{err}").starts_with("cannot find clang: set RDCC_CLANG"),
                "{err}"
            );
        }
    }
}

#[test]
fn runtime_is_found_beside_the_executable_then_in_lib() {
    let dir = scratch();
    let bin = dir.path().join("bin");
    let lib = dir.path().join("lib");
    std::fs::create_dir(&bin).unwrap();
    std::fs::create_dir(&lib).unwrap();
    let exe = bin.join("rdcc");

    let err = find_runtime_with(None, &exe).unwrap_err().to_string();
    assert!(
        err.contains(&format!("{}/librdruntime.a or", bin.display())),
        "{err}"
    );

    let in_lib = write(&lib, "librdruntime.a", "");
    assert_eq!(
        find_runtime_with(None, &exe).unwrap(),
        bin.join("../lib/librdruntime.a")
    );
    let beside = write(&bin, "librdruntime.a", "");
    assert_eq!(find_runtime_with(None, &exe).unwrap(), beside);
    // The environment wins over both.
    assert_eq!(
        find_runtime_with(Some(in_lib.clone().into()), &exe).unwrap(),
        in_lib
    );
    let err = find_runtime_with(Some("/nowhere/x.a".into()), &exe).unwrap_err();
    assert_eq!(
        err.to_string(),
        "RDCC_RUNTIME names /nowhere/x.a, which does not exist"
    );
}
