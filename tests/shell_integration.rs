//! Shell completions and the man page come from the same clap definition as
//! the parser; these tests load them the way a shell would.

use std::process::Command;

fn gpucompat(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("gpucompat")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = gpucompat(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bash_completions_load_and_complete_subcommands() {
    let bin = assert_cmd::cargo::cargo_bin("gpucompat");
    // Source the script, then ask the completion function what follows `gpucompat ex`.
    let script = format!(
        r#"set -e
source <("{bin}" completions bash)
complete -p gpucompat
COMP_WORDS=(gpucompat ex); COMP_CWORD=1; COMP_LINE="gpucompat ex"; COMP_POINT=${{#COMP_LINE}}
_gpucompat gpucompat ex gpucompat
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        bin = bin.display()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("complete"), "{text}");
    assert!(text.lines().any(|l| l == "explain"), "{text}");
}

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let text = stdout(&["completions", shell]);
        for sub in [
            "check", "card", "explain", "pin", "lint", "smoke", "db", "rule",
        ] {
            assert!(text.contains(sub), "{shell} completions lack {sub}");
        }
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = gpucompat(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tcsh"));
}

#[test]
fn man_page_is_roff_with_every_subcommand() {
    let text = stdout(&["man"]);
    assert!(
        text.contains(".TH gpucompat 1"),
        "{}",
        &text[..200.min(text.len())]
    );
    assert!(text.contains(".SH NAME"));
    for sub in ["check", "explain", "pin"] {
        assert!(text.contains(sub), "man page lacks {sub}");
    }
}
