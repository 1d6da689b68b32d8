//! Hostile input: every case an attacker tried, each asserting the exit code,
//! bounded CPU time and peak memory (the child's rusage), that nothing
//! outside `--root` was read and that no code from inside it ran. Large
//! inputs are generated here, at test time.
//!
//! Figures are printed per case (`cargo test --test hostile -- --nocapture`);
//! the 2 s budget holds for a release build (`--release`), debug builds get ten times it.

// The suite prints each case's figures, and its harness calls wait4 (tests/hostile/harness.rs).
#![allow(clippy::print_stderr, unsafe_code)]

#[path = "../common/mod.rs"]
mod common;
mod harness;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use harness::*;

const SECRET: &str = "SECRET-outside-the-root-7f3a";

fn secret_file(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("outside/shadow");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, format!("root:{SECRET}:19000:0:99999:7:::\n")).unwrap();
    p
}

// ---- 1. symlinks stay inside the root ----

#[test]
fn symlinks_resolve_inside_the_root() {
    let (dir, root) = machine("geforce-desktop");
    let secret = secret_file(dir.path());
    // An absolute link to a host file, and a relative one that climbs past the root.
    replace_with_link(&root.join("proc/sys/kernel/hostname"), &secret);
    let climb = format!("../../../../../../../../..{}", secret.display());
    replace_with_link(&root.join("proc/sys/kernel/osrelease"), Path::new(&climb));
    // An image's own absolute link: it must resolve inside the image.
    std::fs::create_dir_all(root.join("usr/lib")).unwrap();
    std::fs::write(
        root.join("usr/lib/os-release"),
        "NAME=\"Inside\"\nID=insideos\nVERSION_ID=\"7\"\nPRETTY_NAME=\"Inside Root OS 7\"\n",
    )
    .unwrap();
    replace_with_link(
        &root.join("etc/os-release"),
        Path::new("/usr/lib/os-release"),
    );
    let rt = root.to_str().unwrap();
    for format in ["text", "json", "markdown"] {
        let r = run(&["card", "--root", rt, "--format", format]);
        r.check(&format!("symlink card {format}"), 0);
        let out = r.out();
        assert!(!out.contains(SECRET), "{format}: {out}");
        assert!(!r.stderr.contains(SECRET));
        assert!(out.contains("Inside Root OS 7"), "{format}: {out}");
    }
    let r = run(&["check", "--root", rt, "--json"]);
    assert!(!r.out().contains(SECRET));
}

// ---- 2, 3. no code from inside the root; interpreters run isolated ----

fn fake_python(root: &Path, marker: &Path) {
    executable(
        &root.join("envs/x/bin/python3"),
        &format!(
            "#!/bin/sh\n{{ echo \"cwd=$(pwd)\"; env; }} > {}\necho 'GPUCOMPAT_JSON {{\"schema\": 1, \"torch\": {{\"installed\": false}}}}'\n",
            marker.display()
        ),
    );
    std::fs::write(
        root.join("envs/x/pyvenv.cfg"),
        "home = /usr/bin\nversion = 3.12.3\n",
    )
    .unwrap();
}

#[test]
fn exec_python_under_a_root_needs_the_opt_in() {
    let (dir, root) = machine("geforce-desktop");
    let marker = dir.path().join("ran");
    fake_python(&root, &marker);
    let rt = root.to_str().unwrap();
    let args = ["card", "--root", rt, "--python", "/envs/x", "--exec-python"];
    let r = run(&args);
    r.check("exec-python without opt-in", 0);
    assert!(!marker.exists(), "an interpreter inside the root ran");
    assert!(
        r.out().contains("GPUCOMPAT_ALLOW_ROOT_CODE=1"),
        "{}",
        r.out()
    );

    // With the opt-in it runs, isolated: in /, without PYTHONPATH or proxies.
    let r = run_with(
        &args,
        &Opts {
            env: &[
                ("GPUCOMPAT_ALLOW_ROOT_CODE", "1"),
                ("PYTHONPATH", "/evil"),
                ("https_proxy", "http://evil:3128"),
            ],
            cwd: Some(dir.path()),
        },
    );
    r.check("exec-python with opt-in", 0);
    let seen = std::fs::read_to_string(&marker).expect("the interpreter ran");
    assert!(seen.contains("cwd=/\n"), "{seen}");
    assert!(
        !seen.contains("PYTHONPATH") && !seen.contains("evil"),
        "{seen}"
    );
    assert!(r.out().contains("ran /envs/x/bin/python3"), "{}", r.out());
}

#[test]
fn a_torch_py_in_the_working_directory_is_not_imported() {
    let Some(python) = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        eprintln!("SKIP: no python3");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("imported");
    std::fs::write(
        dir.path().join("torch.py"),
        format!("open({:?}, 'w').write('x')\n", marker.display().to_string()),
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let r = run_with(
        &["card", "--python", python, "--exec-python", "--json"],
        &Opts {
            env: &[("PYTHONPATH", d), ("PYTHONSTARTUP", d)],
            cwd: Some(dir.path()),
        },
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!marker.exists(), "torch.py from the working directory ran");
    assert!(r.out().contains("--exec-python"), "the card names what ran");
}

// ---- 4. terminal escapes ----

#[test]
fn terminal_escapes_are_made_inert_in_text_and_kept_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut card: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("cards/healthy-3090-smi-12.6.json")).unwrap(),
    )
    .unwrap();
    let evil = "NVIDIA \u{1b}]0;pwned\u{7}\u{1b}[2J RTX\r\u{0}\u{202e}3090";
    card["gpus"][0]["name"]["value"] = evil.into();
    card["gpus"][0]["name"]["source"] = "nvml\u{1b}[31m".into();
    card["origin"] = "probe \u{9b}1;1H /".into();
    let p = dir.path().join("evil.json");
    std::fs::write(&p, card.to_string()).unwrap();
    let p = p.to_str().unwrap();
    for args in [
        vec!["check", "--card", p],
        vec!["check", "--card", p, "-v"],
        vec!["pin", "--host", p],
    ] {
        let r = run(&args);
        let out = r.out();
        for bad in ['\u{1b}', '\u{7}', '\r', '\u{0}', '\u{202e}', '\u{9b}'] {
            assert!(!out.contains(bad), "{args:?}: {bad:?} in {out:?}");
            assert!(!r.stderr.contains(bad), "{args:?}: {bad:?} on stderr");
        }
    }
    let r = run(&["check", "--card", p, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["inventory"]["gpus"][0]["name"]["value"], evil);
}

// ---- 5. errors quote only short, inert excerpts ----

#[test]
fn kb_errors_do_not_quote_what_a_link_points_at() {
    let dir = tempfile::tempdir().unwrap();
    let secret = secret_file(dir.path());
    let kb = dir.path().join("kb");
    std::fs::create_dir_all(&kb).unwrap();
    replace_with_link(&kb.join("gpus.toml"), &secret);
    let r = run(&["--kb", kb.to_str().unwrap(), "db", "gpu", "4090"]);
    r.check("kb link to a secret", 2);
    assert!(!r.stderr.contains(SECRET), "{}", r.stderr);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);

    std::fs::remove_file(kb.join("gpus.toml")).unwrap();
    let long = format!("[meta]\ntable = \"{}\n", "x\u{1b}".repeat(100_000));
    std::fs::write(kb.join("gpus.toml"), long).unwrap();
    let r = run(&["--kb", kb.to_str().unwrap(), "db", "gpu", "4090"]);
    r.check("kb with a 200 KB line", 2);
    assert!(r.stderr.len() < 1000, "{} bytes of error", r.stderr.len());
    assert!(!r.stderr.contains('\u{1b}'));
}

#[test]
fn card_errors_are_short() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("c.json");
    let key = "k\u{1b}".repeat(100_000);
    std::fs::write(&p, format!("{{\"schema_version\":1,\"{key}\":1}}")).unwrap();
    let r = run(&["check", "--card", p.to_str().unwrap()]);
    r.check("card with a 200 KB key", 2);
    assert!(r.stderr.len() < 1000 && !r.stderr.contains('\u{1b}'));
    // A 200 KB value of the wrong type.
    let value = "v\\u001b".repeat(100_000);
    std::fs::write(
        &p,
        format!("{{\"schema_version\":1,\"origin\":\"x\",\"os\":{{}},\"gpus\":[{{\"index\":\"{value}\"}}]}}"),
    )
    .unwrap();
    let r = run(&["check", "--card", p.to_str().unwrap()]);
    r.check("card with a 200 KB value", 2);
    assert!(r.stderr.contains("gpus[0].index"), "{}", r.stderr);
    assert!(
        r.stderr.len() < 1000 && !r.stderr.contains('\u{1b}'),
        "{}",
        r.stderr.len()
    );
}

// ---- 6. FIFOs never block ----

#[test]
fn fifos_at_probed_paths_do_not_hang() {
    let (_dir, root) = machine("geforce-desktop");
    for p in [
        "proc/driver/nvidia/version",
        "etc/os-release",
        "proc/self/environ",
        "sys/bus/pci/devices/0000:01:00.0/vendor",
        "proc/version",
    ] {
        mkfifo(&root.join(p));
    }
    let r = run(&["check", "--root", root.to_str().unwrap()]);
    r.check("fifos under --root", 0);
    assert!(r.out().contains("FIFO"), "{}", r.out());
}

#[test]
fn fifos_as_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let kb = dir.path().join("kb");
    std::fs::create_dir_all(&kb).unwrap();
    mkfifo(&kb.join("gpus.toml"));
    for (name, args) in [
        ("explain fifo", vec!["explain", f]),
        ("check --card fifo", vec!["check", "--card", f]),
        ("lint fifo", vec!["lint", f]),
        ("pin --host fifo", vec!["pin", "--host", f]),
        (
            "--kb fifo",
            vec!["--kb", kb.to_str().unwrap(), "db", "gpu", "4090"],
        ),
    ] {
        let r = run(&args);
        r.check(name, 2);
        assert!(r.stderr.contains("FIFO"), "{name}: {}", r.stderr);
    }
}

// ---- 7. command deadlines hold ----

#[test]
fn a_grandchild_holding_the_pipe_does_not_stretch_the_deadline() {
    let (_dir, root) = machine("geforce-desktop");
    executable(
        &root.join("usr/bin/nvidia-smi"),
        "#!/bin/sh\nsleep 40 &\necho 'not a table'\n",
    );
    let r = run_with(
        &["card", "--root", root.to_str().unwrap()],
        &Opts {
            env: &[("GPUCOMPAT_ALLOW_ROOT_CODE", "1")],
            cwd: None,
        },
    );
    r.check("grandchild holds the pipe", 0);
    assert!(
        r.wall < std::time::Duration::from_secs(10),
        "waited {:?}",
        r.wall
    );
}

// ---- 8. every input is capped ----

#[test]
fn devices_and_oversized_inputs_are_refused_with_the_limit() {
    for (name, args, says) in [
        (
            "explain /dev/zero",
            vec!["explain", "/dev/zero"],
            "character device",
        ),
        (
            "check --card /dev/zero",
            vec!["check", "--card", "/dev/zero"],
            "character device",
        ),
        (
            "lint /dev/zero",
            vec!["lint", "/dev/zero"],
            "character device",
        ),
    ] {
        let r = run(&args);
        r.check(name, 2);
        assert!(r.stderr.contains(says), "{name}: {}", r.stderr);
    }
    let dir = tempfile::tempdir().unwrap();
    let big = |n: &str, len: u64| {
        let p = dir.path().join(n);
        sparse(&p, len);
        p.to_str().unwrap().to_string()
    };
    let paste = big("paste.txt", 17 << 20);
    let card = big("card.json", 49 << 20);
    let docker = big("Dockerfile", 2 << 20);
    let kb = dir.path().join("kb");
    std::fs::create_dir_all(&kb).unwrap();
    sparse(&kb.join("gpus.toml"), 3 << 20);
    let kb = kb.to_str().unwrap().to_string();
    for (name, args) in [
        ("explain 17 MiB", vec!["explain", &paste]),
        ("card 49 MiB", vec!["check", "--card", &card]),
        ("lint 2 MiB", vec!["lint", &docker]),
        ("--kb 3 MiB", vec!["--kb", &kb, "db", "gpu", "4090"]),
    ] {
        let r = run(&args);
        r.check(name, 2);
        assert!(r.stderr.contains("limit"), "{name}: {}", r.stderr);
    }
    let zero_kb = dir.path().join("kbz");
    std::fs::create_dir_all(&zero_kb).unwrap();
    replace_with_link(&zero_kb.join("gpus.toml"), Path::new("/dev/zero"));
    let r = run(&["--kb", zero_kb.to_str().unwrap(), "db", "gpu", "4090"]);
    r.check("--kb table linked to /dev/zero", 2);
}

#[test]
fn a_huge_or_endless_environ_under_a_root_is_bounded() {
    let (_dir, root) = machine("geforce-desktop");
    let env = root.join("proc/self/environ");
    std::fs::remove_file(&env).unwrap();
    sparse(&env, 4 << 30);
    let r = run(&["card", "--root", root.to_str().unwrap()]);
    r.check("4 GiB environ", 0);
    replace_with_link(&env, Path::new("/dev/zero"));
    let r = run(&["card", "--root", root.to_str().unwrap()]);
    r.check("environ linked to /dev/zero", 0);
}

// ---- 9, 10. lint expansion and output are bounded ----

#[test]
fn arg_expansion_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("FROM ubuntu:22.04\nARG X0=ab\n");
    for i in 1..=40 {
        text.push_str(&format!("ARG X{i}=${{X{}}}${{X{}}}\n", i - 1, i - 1));
    }
    text.push_str("ENV Y=${X40}${X40}\nRUN pip install torch==$X40 $Y\n");
    let p = dir.path().join("Dockerfile");
    std::fs::write(&p, text).unwrap();
    let r = run(&["lint", p.to_str().unwrap()]);
    r.check("doubling ARG lines", 0);
    assert!(r.stdout.len() < 64 << 10, "{} bytes", r.stdout.len());
}

#[test]
fn repeated_findings_are_collapsed() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nRUN apt-get install -y {}\n",
        "cuda-toolkit-12-4 ".repeat(50_000)
    );
    let p = dir.path().join("Dockerfile");
    std::fs::write(&p, text).unwrap();
    let r = run(&["lint", p.to_str().unwrap()]);
    r.check("a RUN line of 50 000 installs", 0);
    assert!(r.stdout.len() < 16 << 10, "{} bytes", r.stdout.len());
    assert!(r.out().contains("more times"), "{}", r.out());
}

// ---- 11. linear time on large inputs ----

#[test]
fn sixteen_thousand_pci_devices() {
    let (_dir, root) = machine("geforce-desktop");
    let base = root.join("sys/bus/pci/devices");
    for i in 0..16_000u32 {
        let d = base.join(format!(
            "0001:{:02x}:{:02x}.{}",
            i / 256,
            (i / 8) % 32,
            i % 8
        ));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("class"), "0x030000\n").unwrap();
        std::fs::write(d.join("vendor"), "0x10de\n").unwrap();
        std::fs::write(d.join("device"), "0x2684\n").unwrap();
    }
    let r = run(&["check", "--root", root.to_str().unwrap()]);
    r.check("16k PCI devices", 1);
}

#[test]
fn ten_thousand_from_stages() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&format!(
            "FROM ubuntu:22.04 AS s{i}\nARG A{i}=1\nRUN echo {i}\n"
        ));
    }
    text.push_str("FROM s9999\n");
    let p = dir.path().join("Dockerfile");
    std::fs::write(&p, text).unwrap();
    let r = run(&["lint", p.to_str().unwrap()]);
    r.check("10k FROM stages", 0);
}

fn gpu_rows(n: usize) -> String {
    let mut s = String::from("[meta]\ntable = \"gpus\"\ndescription = \"generated\"\n\n");
    for i in 0..n {
        s.push_str(&format!(
            "[[row]]\nname = \"GPU {i}\"\narchitecture = \"Ada Lovelace\"\nsegment = \"datacenter\"\nsource = \"generated\"\n\n"
        ));
    }
    s
}

#[test]
fn large_kb_tables_load_linearly_or_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let kb = dir.path().join("kb");
    std::fs::create_dir_all(&kb).unwrap();
    std::fs::write(kb.join("gpus.toml"), gpu_rows(20_000)).unwrap();
    let k = kb.to_str().unwrap();
    let r = run(&["--kb", k, "db", "gpu", "GPU 19999", "--json"]);
    r.check("--kb 20k GPU rows", 0);
    std::fs::write(kb.join("gpus.toml"), gpu_rows(300_000)).unwrap();
    let r = run(&["--kb", k, "db", "gpu", "GPU 1"]);
    r.check("--kb 300k GPU rows", 2);
    assert!(r.stderr.contains("limit"), "{}", r.stderr);
}

#[test]
fn a_card_with_a_hundred_thousand_gpus() {
    let dir = tempfile::tempdir().unwrap();
    let mut card: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("cards/healthy-3090-smi-12.6.json")).unwrap(),
    )
    .unwrap();
    let g = card["gpus"][0].clone();
    card["gpus"] = (0..100_000)
        .map(|i| {
            let mut g = g.clone();
            g["index"] = i.into();
            g
        })
        .collect();
    let p = dir.path().join("card.json");
    std::fs::write(&p, card.to_string()).unwrap();
    drop(card);
    // A card describes one machine: a list this long is refused, quickly and
    // without building it, naming the field and the limit.
    let r = run(&["check", "--card", p.to_str().unwrap()]);
    r.check("100k-GPU card", 2);
    let err = r.stderr.clone();
    assert!(
        err.contains("gpus") && err.contains("at most 1024"),
        "{err}"
    );
}

// ---- 12. a closed pipe ----

#[test]
fn rule_all_into_head_exits_quietly() {
    let mut child = Command::new(bin())
        .args(["rule", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone (as `head -1` exits): the rest of the output meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert!(!first.is_empty());
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- 13. --kb tables are validated ----

#[test]
fn kb_tables_with_duplicates_or_inverted_ranges_exit_2_naming_the_row() {
    let dir = tempfile::tempdir().unwrap();
    let kb = dir.path().join("kb");
    std::fs::create_dir_all(&kb).unwrap();
    let k = kb.to_str().unwrap();
    std::fs::write(
        kb.join("gpus.toml"),
        "[meta]\ntable = \"gpus\"\ndescription = \"d\"\n\n[[row]]\nname = \"NVIDIA X1\"\narchitecture = \"Ada Lovelace\"\nsegment = \"datacenter\"\nsource = \"a\"\n\n[[row]]\nname = \"nvidia x1\"\narchitecture = \"Hopper\"\nsegment = \"datacenter\"\nsource = \"b\"\n",
    )
    .unwrap();
    let r = run(&["--kb", k, "db", "gpu", "X1"]);
    r.check("duplicate GPU name", 2);
    assert!(
        r.stderr.contains("gpus, row 2") && r.stderr.contains("row 1"),
        "{}",
        r.stderr
    );
    std::fs::remove_file(kb.join("gpus.toml")).unwrap();
    std::fs::write(
        kb.join("minor_compat.toml"),
        "[meta]\ntable = \"minor_compat\"\ndescription = \"d\"\n\n[[row]]\ncuda_min = \"12.8\"\ncuda_max = \"12.0\"\nsource = \"a\"\n",
    )
    .unwrap();
    let r = run(&["--kb", k, "db", "driver", "550.54.14"]);
    r.check("min above max", 2);
    assert!(
        r.stderr.contains("minor_compat, row 1") && r.stderr.contains("above"),
        "{}",
        r.stderr
    );
}

// ---- the one strict card reader (check --card, pin --host) ----

#[test]
fn only_cards_are_read_as_cards() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let good = fixture("cards/healthy-3090-smi-12.6.json");
    let good = good.to_str().unwrap();
    let pin = run(&["pin", "--host", good, "--format", "json"]);
    let pin = write("pin.json", &pin.out());
    let report = run(&["check", "--card", good, "--json"]);
    let report = write("report.json", &report.out());
    let smoke = write(
        "smoke.json",
        r#"{"schema_version":1,"kind":"smoke","findings":[],"devices":[]}"#,
    );
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(good).unwrap()).unwrap();
    v["schema_version"] = 99.into();
    let future = write("future.json", &v.to_string());
    v["schema_version"] = 1.into();
    v["gpus"][0]["index"] = "zero".into();
    let typed = write("typed.json", &v.to_string());
    for (name, path, field) in [
        ("{}", write("e.json", "{}"), "schema_version"),
        ("[]", write("a.json", "[]"), "(top level)"),
        (
            "inventory [1]",
            write("i.json", r#"{"findings":[],"inventory":[1]}"#),
            "inventory",
        ),
        ("smoke output", smoke, "inventory"),
        ("pin output", pin, ""),
        ("schema 99", future, "schema_version"),
        ("wrong type", typed, "gpus[0].index"),
    ] {
        for cmd in [["check", "--card"], ["pin", "--host"]] {
            let r = run(&[cmd[0], cmd[1], &path]);
            r.check(&format!("{} {name}", cmd[0]), 2);
            assert!(
                r.stderr.contains(&format!("field `{field}")),
                "{name}: {}",
                r.stderr
            );
        }
    }
    // A check report embeds the card: accepted by both.
    let r = run(&["check", "--card", &report]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    let r = run(&["pin", "--host", &report]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    // The embedded card is the machine, not an empty host: the 3090's CUDA build is pinned.
    assert!(r.out().contains("+cu126"), "{}", r.out());
}
