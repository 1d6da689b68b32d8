//! What the command line says when input is missing or short: each cause
//! said once, `db torch X.Y` as the newest X.Y.z, `db image` like the other
//! `db` questions, and a prompt when `explain` waits on a terminal.

use std::process::Output;

fn gpucompat(args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_missing_file_is_named_once_with_its_cause_once() {
    for args in [
        &["explain", "/nonexistent/report.txt"][..],
        &["lint", "/nonexistent/report.txt"][..],
        &["--kb", "/nonexistent/report.txt", "check"][..],
    ] {
        let o = gpucompat(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.matches("/nonexistent/report.txt").count(), 1, "{err}");
        assert!(err.matches("os error").count() <= 1, "{err}");
        assert!(err.matches("not a directory").count() <= 1, "{err}");
    }
}

#[test]
fn db_torch_major_minor_means_the_newest_patch_release() {
    let o = gpucompat(&["db", "torch", "2.8", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let release = v["release"].as_str().unwrap();
    assert!(release.starts_with("2.8."), "{release}");
    // An exact release is still that release, and an unknown one is still refused.
    let o = gpucompat(&["db", "torch", "2.7.0", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["release"], "2.7.0");
    assert_eq!(gpucompat(&["db", "torch", "9.9"]).status.code(), Some(2));
}

#[test]
fn db_image_without_an_image_is_a_usage_error_like_the_other_db_questions() {
    let image = gpucompat(&["db", "image"]);
    let driver = gpucompat(&["db", "driver"]);
    assert_eq!(image.status.code(), Some(2));
    assert_eq!(driver.status.code(), Some(2));
    assert!(stderr(&image).contains("required arguments were not provided"));
    let list = gpucompat(&["db", "image", "--list"]);
    assert_eq!(list.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&list.stdout).starts_with("| CUDA |"));
}

#[test]
fn explain_says_it_reads_standard_input_only_on_a_terminal() {
    // From a pipe: no prompt, the input is read.
    let o = assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .arg("explain")
        .write_stdin("nothing useful\n")
        .output()
        .unwrap();
    assert!(!stderr(&o).contains("standard input"), "{}", stderr(&o));
    // On a terminal (util-linux `script` gives it one), the prompt is on stderr.
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        panic!("util-linux `script` is needed for this test (apt-get install bsdutils)");
    }
    let bin = assert_cmd::cargo::cargo_bin("gpucompat");
    let o = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("{} explain < /dev/tty", bin.display()),
            "/dev/null",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        all.contains("reading a report from standard input"),
        "{all}"
    );
}

/// `--exec-python` with an interpreter that takes two seconds: the progress
/// line shows on a terminal's stderr, and never in a pipe.
#[test]
fn a_slow_exec_python_shows_progress_only_on_a_terminal() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("bin/python3");
    std::fs::create_dir_all(python.parent().unwrap()).unwrap();
    std::fs::write(&python, "#!/bin/sh\nsleep 2\necho '{}'\n").unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("gpucompat");
    let args = [
        "check",
        "--exec-python",
        "--python",
        python.to_str().unwrap(),
    ];

    let piped = std::process::Command::new(&bin)
        .args(args)
        .output()
        .unwrap();
    assert!(
        !stderr(&piped).contains("running the inventory script"),
        "{}",
        stderr(&piped)
    );

    let cmd = format!("{} {} 2>&1 >/dev/null", bin.display(), args.join(" "));
    let o = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("util-linux `script` gives the command a terminal");
    let all = String::from_utf8_lossy(&o.stdout);
    assert!(
        all.contains("running the inventory script in each Python interpreter"),
        "{all}"
    );
}
