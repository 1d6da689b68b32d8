//! `gpucompat db ...` as a user sees it: text and JSON snapshots, exit codes,
//! and `--kb DIR` replacing a table.

use assert_cmd::Command;
use serde_json::Value;

fn db(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .arg("db")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Run, expect exit 0, return stdout.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = db(args);
    assert_eq!(code, 0, "{args:?}\nstdout:\n{out}\nstderr:\n{err}");
    out
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    serde_json::from_str(&ok(&a)).unwrap()
}

// ---- driver ------------------------------------------------------------

#[test]
fn driver_text() {
    insta::assert_snapshot!("driver_535_text", ok(&["driver", "535.104.05"]));
}

#[test]
fn driver_json() {
    let out = ok(&["driver", "535.104.05", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["max_cuda"]["value"], "12.2");
    assert_eq!(v["max_cuda"]["at_least"], false);
    assert_eq!(v["max_cuda"]["kb"]["row"], "12.2.2");
    assert_eq!(v["branch"]["kind"], "LTSB");
    insta::assert_snapshot!("driver_535_json", out);
}

#[test]
fn driver_semantics_split_torch_variants() {
    let v = json(&["driver", "535.104.05"]);
    let loads = |variant: &str| -> String {
        v["torch_variants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["variant"] == variant)
            .map(|t| t["loads"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(loads("cu121"), "toolkit");
    assert_eq!(loads("cu124"), "minor_compat");
    assert_eq!(loads("cu128"), "minor_compat");
    assert_eq!(loads("cu130"), "no");
    let fam = &v["cuda"]["minor_compat"];
    let f12 = fam
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["family"] == "12.x")
        .unwrap();
    assert_eq!(f12["min_driver"], "525.60.13");
    assert_eq!(f12["beyond_max_cuda"][0], "12.3");
    // no 13.x: the 580 floor is not met
    assert!(!fam
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["family"] == "13.x"));
}

#[test]
fn driver_past_the_table_and_windows_forms() {
    let v = json(&["driver", "620.10.01"]);
    assert_eq!(v["max_cuda"]["value"], "13.4");
    assert_eq!(v["max_cuda"]["at_least"], true);
    insta::assert_snapshot!("driver_620_text", ok(&["driver", "620.10.01"]));
    // The Windows internal form implies Windows.
    let v = json(&["driver", "32.0.15.5222"]);
    assert_eq!(v["os"], "windows");
    assert_eq!(v["driver"], "552.22");
    assert_eq!(v["max_cuda"]["value"], "12.4");
    let v = json(&["driver", "580.88", "--os", "windows"]);
    assert_eq!(v["max_cuda"]["value"], "12.9");
    assert_eq!(v["max_cuda"]["at_least"], true);
    // A branch alone: answers for its lowest driver, with the range in a note.
    let v = json(&["driver", "R550"]);
    assert_eq!(v["branch_only"], true);
    assert_eq!(v["max_cuda"]["value"], "12.3");
    assert!(v["notes"][0].as_str().unwrap().contains("up to CUDA 12.4"));
    // A driver older than the table: max CUDA unknown (null), still exit 0.
    let v = json(&["driver", "340.108"]);
    assert!(v["max_cuda"].is_null());
}

// ---- cuda --------------------------------------------------------------

#[test]
fn driver_on_a_branch_with_no_kind() {
    // driver_branches R410: a row with no kind (before the 2019 lifecycle) is not "not in
    // driver_branches"; its max CUDA major still shows.
    let v = json(&["driver", "410.48"]);
    assert_eq!(v["branch"]["name"], "R410");
    assert!(v["branch"]["kind"].is_null());
    assert_eq!(v["branch"]["max_cuda_major"], 10);
    assert_eq!(v["branch"]["kb"]["row"], "R410");
    let t = ok(&["driver", "410.48"]);
    assert!(
        t.contains("R410, kind unknown (no LTSB/PB/NFB class"),
        "{t}"
    );
    assert!(!t.contains("not in driver_branches"), "{t}");
    // Near miss: a branch with no row at all.
    let t = ok(&["driver", "430.64"]);
    assert!(t.contains("not in driver_branches"), "{t}");
}

#[test]
fn cuda_text_and_json() {
    insta::assert_snapshot!("cuda_12_4_text", ok(&["cuda", "12.4"]));
    let out = ok(&["cuda", "12.4", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["min_driver"]["toolkit"]["linux"]["driver"], "550.54.14");
    assert_eq!(
        v["min_driver"]["minor_compat"]["linux"]["driver"],
        "525.60.13"
    );
    assert_eq!(
        v["min_driver"]["minor_compat"]["windows"]["driver"],
        "528.33"
    );
    assert_eq!(v["nvcc_targets"]["max_sm"], "9.0a");
    insta::assert_snapshot!("cuda_12_4_json", out);
}

#[test]
fn cuda_every_spelling() {
    for (input, spelling, release) in [
        ("12.4", "major.minor", Value::Null),
        ("12.4.1", "toolkit release", Value::from("12.4.1")),
        ("12040", "integer", Value::Null),
        ("cu124", "wheel tag", Value::Null),
        ("V12.4.131", "nvcc release", Value::Null),
        ("12.4.127", "component version", Value::Null),
        ("CUDA 12.4", "major.minor", Value::Null),
    ] {
        let v = json(&["cuda", input]);
        assert_eq!(v["cuda"], "12.4", "{input}");
        assert_eq!(v["spelling"], spelling, "{input}");
        assert_eq!(v["release"], release, "{input}");
        assert_eq!(v["spellings"]["integer"], 12040);
        assert_eq!(v["spellings"]["wheel_tag"], "cu124");
    }
    // The exact release changes the toolkit driver: 12.4.1 shipped 550.54.15.
    let v = json(&["cuda", "12.4.1"]);
    assert_eq!(v["min_driver"]["toolkit"]["linux"]["driver"], "550.54.15");
    let v = json(&["cuda", "V12.4.131"]);
    assert_eq!(v["min_driver"]["toolkit"]["linux"]["driver"], "550.54.14");
}

#[test]
fn cuda_branch_only_and_pre_11() {
    let v = json(&["cuda", "13.4"]);
    assert_eq!(v["min_driver"]["toolkit"]["linux"]["driver"], "615");
    assert_eq!(v["min_driver"]["toolkit"]["linux"]["branch_only"], true);
    assert_eq!(v["min_driver"]["minor_compat"]["linux"]["driver"], "580");
    assert!(v["nvcc_targets"]["targets"].is_null());
    let v = json(&["cuda", "10.2"]);
    assert_eq!(
        v["min_driver"]["minor_compat"]["linux"]["driver"],
        v["min_driver"]["toolkit"]["linux"]["driver"]
    );
}

// ---- gpu ---------------------------------------------------------------

#[test]
fn gpu_text_and_json() {
    insta::assert_snapshot!("gpu_rtx_5090_text", ok(&["gpu", "RTX 5090"]));
    let out = ok(&["gpu", "RTX 5090", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["match"], "found");
    assert_eq!(v["gpu"]["name"], "NVIDIA GeForce RTX 5090");
    assert_eq!(v["gpu"]["compute_capability"], "12.0");
    assert_eq!(v["gpu"]["architecture_facts"]["first_cuda"], "12.8");
    let k = |torch: &str, variant: &str| -> String {
        v["gpu"]["torch_kernels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["torch"] == torch && k["variant"] == variant)
            .map(|k| k["kernel"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(k("2.6", "cu124"), "none");
    assert_eq!(k("2.6", "cu126"), "none");
    assert_eq!(k("2.8", "cu128"), "sass");
    insta::assert_snapshot!("gpu_rtx_5090_json", out);
}

#[test]
fn gpu_ambiguous_and_unknown_cc() {
    insta::assert_snapshot!("gpu_ambiguous_text", ok(&["gpu", "5090"]));
    let v = json(&["gpu", "A100"]);
    assert_eq!(v["match"], "ambiguous");
    assert!(v["gpu"].is_null());
    assert_eq!(v["candidates"].as_array().unwrap().len(), 6);
    // A row whose CC is not known says so, and every torch answer is unknown.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gpus.toml"),
        r#"[meta]
table = "gpus"
description = "test override"

[[row]]
name = "NVIDIA Test GPU"
architecture = "Blackwell"
segment = "geforce"
source = "test"
"#,
    )
    .unwrap();
    let kb = dir.path().to_str().unwrap();
    let run = |json: bool| {
        let mut args = vec!["--kb", kb, "db", "gpu", "Test GPU"];
        if json {
            args.push("--json");
        }
        let out = Command::cargo_bin("gpucompat")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let v: Value = serde_json::from_str(&run(true)).unwrap();
    assert!(v["gpu"]["compute_capability"].is_null());
    assert!(v["gpu"]["architecture_facts"].is_null());
    assert!(v["gpu"]["torch_kernels"]
        .as_array()
        .unwrap()
        .iter()
        .all(|k| k["kernel"] == "unknown"));
    let text = run(false);
    assert!(text.contains("compute capability  unknown"), "{text}");
}

#[test]
fn gpu_derived_cc_names_its_rule() {
    let v = json(&["gpu", "RTX 5090 D"]);
    assert_eq!(v["gpu"]["compute_capability"], "12.0");
    assert_eq!(v["gpu"]["cc_derived"], "chip");
    assert!(v["gpu"]["cc_rule"].as_str().unwrap().contains("GB20x"));
    let text = ok(&["gpu", "RTX 5090 D"]);
    assert!(text.contains("12.0 (derived: GB20x"), "{text}");
    // An itemised model carries no derivation.
    let v = json(&["gpu", "NVIDIA GeForce RTX 5090"]);
    assert!(v["gpu"]["cc_derived"].is_null());
}

#[test]
fn gpu_integrated_part() {
    let v = json(&["gpu", "Jetson AGX Orin"]);
    assert_eq!(v["gpu"]["architecture_facts"]["integrated"], true);
    // torch x86 wheels carry sm_80/sm_86 but no sm_87: no SASS for Orin (the
    // 1.x wheels' compute_37/compute_50 PTX is all a JIT could start from).
    assert!(v["gpu"]["torch_kernels"]
        .as_array()
        .unwrap()
        .iter()
        .all(|k| k["kernel"] != "sass"));
}

// ---- torch -------------------------------------------------------------

#[test]
fn torch_text_and_json() {
    insta::assert_snapshot!("torch_2_6_0_text", ok(&["torch", "2.6.0"]));
    let out = ok(&["torch", "2.8.0+cu128", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["variants"].as_array().unwrap().len(), 1);
    let var = &v["variants"][0];
    assert_eq!(var["variant"], "cu128");
    assert_eq!(var["is_default"], true);
    assert_eq!(
        var["arch_list"].as_array().unwrap().last().unwrap(),
        "sm_120"
    );
    assert_eq!(var["min_driver"]["toolkit"]["linux"]["driver"], "570.26");
    assert_eq!(
        var["min_driver"]["minor_compat"]["linux"]["driver"],
        "525.60.13"
    );
    insta::assert_snapshot!("torch_2_8_0_cu128_json", out);
}

#[test]
fn torch_unknown_arch_list_and_non_cuda_builds() {
    // No torch_arch row for 1.3 cu101: the arch list and PTX stay unknown (null).
    let v = json(&["torch", "1.3.0+cu101"]);
    assert!(v["variants"][0]["arch_list"].is_null());
    assert!(v["variants"][0]["ptx"].is_null());
    // 2.6 cu126's list is a secondary copy's: shown, and not verified.
    let v = json(&["torch", "2.6.0+cu126"]);
    assert_eq!(v["variants"][0]["arch_verified"], false);
    assert_eq!(v["variants"][0]["arch_list"].as_array().unwrap().len(), 7);
    let v = json(&["torch", "2.6.0+cpu"]);
    assert_eq!(v["variants"][0]["kind"], "cpu");
    assert!(v["variants"][0]["min_driver"].is_null());
    let v = json(&["torch", "2.6.0+rocm6.1"]);
    assert_eq!(v["variants"][0]["kind"], "rocm");
    let v = json(&["torch", "2.11.0"]);
    assert!(v["torchaudio"].is_null());
}

// ---- arch --------------------------------------------------------------

#[test]
fn arch_text_and_json() {
    insta::assert_snapshot!(
        "arch_sm86_on_8_9_text",
        ok(&["arch", "sm_80 sm_86 compute_90", "--cc", "8.9"])
    );
    let out = ok(&["arch", "sm_80 sm_86 compute_90", "--cc", "8.9", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"]["kind"], "sass");
    assert_eq!(v["result"]["target"], "sm_86");
    insta::assert_snapshot!("arch_sm86_on_8_9_json", out);
}

#[test]
fn arch_every_spelling() {
    for (list, cc, kind) in [
        ("sm_80 sm_86 compute_90", "9.0", "ptx"),
        ("sm_86", "sm_90", "none"),
        ("8.0;8.6;9.0+PTX", "12.0", "ptx"),
        ("8.0;8.6;9.0", "12.0", "none"),
        ("['sm_80', 'sm_86', 'sm_90']", "89", "sass"),
        ("sm_80,sm_90a", "9.0", "sass"),
        ("sm_90a", "10.0", "none"),
        ("compute_90a", "10.0", "none"),
        ("sm_100f", "10.3", "sass"),
        ("sm_100f", "12.0", "none"),
        ("sm_80 sm_86", "8.7", "none"),
        ("sm_87", "8.7", "sass"),
        ("sm_50", "5.3", "none"),
    ] {
        let v = json(&["arch", list, "--cc", cc]);
        assert_eq!(v["result"]["kind"], kind, "{list} on {cc}");
    }
}

// ---- unknown input -----------------------------------------------------

#[test]
fn unknown_input_exits_2_with_the_nearest_names() {
    for (name, args) in [
        ("unknown_gpu", vec!["gpu", "RTX 5095"]),
        ("unknown_torch", vec!["torch", "2.66.0"]),
        ("unknown_torch_variant", vec!["torch", "2.6.0+cu121"]),
        ("unknown_cuda", vec!["cuda", "12.7"]),
        ("garbage_cuda", vec!["cuda", "twelve"]),
        ("garbage_driver", vec!["driver", "535.x"]),
        ("garbage_arch", vec!["arch", "sm_80 banana", "--cc", "8.9"]),
    ] {
        let (code, out, err) = db(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        insta::assert_snapshot!(name, err);
    }
    let (code, out, _) = db(&["gpu", "RTX 5095", "--json"]);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["error"]["nearest"][0], "NVIDIA GeForce RTX 5090");
    insta::assert_snapshot!("unknown_gpu_json", out);
}

// ---- --kb DIR ----------------------------------------------------------

#[test]
fn kb_dir_overrides_a_table() {
    let dir = tempfile::tempdir().unwrap();
    // A cuda_toolkits table in which 535.104.05 shipped with a (made-up) 12.9.0.
    std::fs::write(
        dir.path().join("cuda_toolkits.toml"),
        r#"[meta]
table = "cuda_toolkits"
description = "test override"

[[row]]
version = "12.0.0"
linux_driver = "525.60.13"
source = "test"

[[row]]
version = "12.9.0"
linux_driver = "535.104.05"
source = "test override row"
"#,
    )
    .unwrap();
    let before = json(&["driver", "535.104.05"]);
    assert_eq!(before["max_cuda"]["value"], "12.2");
    let kb = dir.path().to_str().unwrap();
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["--kb", kb, "db", "driver", "535.104.05", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let after: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(after["max_cuda"]["value"], "12.9");
    assert_eq!(after["max_cuda"]["kb"]["source"], "test override row");
    // Tables not in DIR stay the embedded ones.
    assert_eq!(after["branch"]["kind"], "LTSB");
}

#[test]
fn kb_dir_with_a_broken_table_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gpus.toml"), "this is not toml [").unwrap();
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["--kb", dir.path().to_str().unwrap(), "db", "gpu", "T4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gpus"));
}

#[test]
fn verbose_lists_the_sources() {
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .args(["-v", "db", "cuda", "12.4"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("sources:"), "{text}");
    assert!(text.contains("[cuda_toolkits 12.4.0] https://docs.nvidia.com/"));
    assert!(!ok(&["cuda", "12.4"]).contains("sources:"));
}

// ---- package, sources, --version ---------------------------------------

#[test]
fn package_answers_for_each_package_table() {
    // One release of an extension: the torch it pins, from PyPI metadata.
    let v = json(&["package", "xformers", "0.0.28.post3"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["facts"]["torch"][0], "2.5.1");
    assert_eq!(rows[0]["kb"]["table"], "extensions");
    // A series lists its releases; the near release 0.0.28.post1 is not 0.0.28.post3.
    assert_eq!(
        json(&["package", "xformers", "0.0.28"])["rows"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // A range row answers for a release inside it; spelling with '_' is the same package.
    let v = json(&["package", "flash_attn", "2.7.4"]);
    assert_eq!(v["rows"][0]["facts"]["min_cc"], "8.0");
    for (name, table) in [
        ("onnxruntime", "onnxruntime"),
        ("tensorrt", "tensorrt"),
        ("tensorflow", "tensorflow"),
        ("cudnn", "cudnn"),
        ("jax", "jax"),
        ("jax-cuda12-plugin", "jax"),
        ("vllm", "extensions"),
    ] {
        let v = json(&["package", name]);
        let rows = v["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{name}");
        assert!(
            rows.iter()
                .all(|r| r["kb"]["table"] == table
                    && !r["kb"]["source"].as_str().unwrap().is_empty()),
            "{name}"
        );
    }
    let text = ok(&["package", "xformers", "0.0.30"]);
    assert!(
        text.contains("xformers 0.0.30") && text.contains("torch") && text.contains("2.7.0"),
        "{text}"
    );
}

#[test]
fn package_unknown_is_exit_2_with_nearest() {
    let (code, _, err) = db(&["package", "xformer"]);
    assert_eq!(code, 2);
    assert!(err.contains("nearest known: xformers"), "{err}");
    let (code, _, err) = db(&["package", "vllm", "9.9"]);
    assert_eq!(code, 2);
    assert!(err.contains("not in the tables"), "{err}");
}

#[test]
fn sources_lists_every_table_and_source() {
    let v = json(&["sources"]);
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 18);
    assert!(tables.iter().all(|t| t["rows"].as_u64().unwrap() > 0));
    let sources = v["sources"].as_array().unwrap();
    assert!(sources.iter().any(|s| s["source"]
        .as_str()
        .unwrap()
        .starts_with("https://developer.nvidia.com/cuda-legacy-gpus")));
    assert!(sources.iter().all(|s| s["rows"].as_u64().unwrap() >= 1));
    assert!(ok(&["sources"]).contains(" sources:"));
}

#[test]
fn version_names_the_tables_as_of_date() {
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .arg("--version")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("knowledge tables as of 20"), "{text}");
}

#[test]
fn torch_answers_for_every_release_since_1_0() {
    let kb = gpucompat::kb::Kb::embedded();
    let releases: Vec<&str> = kb
        .torch_releases
        .row
        .iter()
        .map(|r| r.version.as_str())
        .collect();
    for v in [
        "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.4.0", "1.5.0", "1.5.1", "1.6.0", "1.7.0", "1.7.1",
        "1.8.0", "1.8.1", "1.8.2", "1.9.0", "1.9.1", "1.10.0", "1.10.1", "1.11.0", "1.12.0",
        "2.0.0", "2.15.0",
    ] {
        assert!(releases.contains(&v), "torch {v} missing");
    }
    for v in &releases {
        let out = json(&["torch", v]);
        assert_eq!(out["release"], *v, "{v}");
        assert!(!out["kb"]["source"].as_str().unwrap().is_empty(), "{v}");
    }
    // 1.7.1: the variants and the PyPI default of the previous-versions page.
    let v = json(&["torch", "1.7.1"]);
    assert_eq!(v["default_variant"], "cu102");
    assert_eq!(v["torchvision"], "0.8.2");
}

#[test]
fn newest_table_rows_answer() {
    // R590: a new feature branch, no end of life.
    let v = json(&["driver", "590"]);
    assert_eq!(v["branch"]["kind"], "NFB");
    assert!(v["branch"]["eol"].is_null());
    let v = json(&["driver", "R470"]);
    assert_eq!(v["branch"]["kind"], "LTSB");
    assert_eq!(v["branch"]["eol"], "2024-07");
    // CUDA 13.5: known release, toolkit driver unknown, the 13.x floor still applies.
    let v = json(&["cuda", "13.5"]);
    assert!(v["min_driver"]["toolkit"]["linux"].is_null(), "{v}");
    assert_eq!(v["min_driver"]["minor_compat"]["linux"]["driver"], "580");
    // TensorRT 11.3.0 with its CUDA builds.
    let v = json(&["package", "tensorrt", "11.3.0"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["kb"]["table"], "tensorrt");
    let text = ok(&["package", "tensorrt", "11.3.0"]);
    assert!(text.contains("12.9 13.4"), "{text}");
    for (name, version) in [
        ("tensorrt", "11.2.1"),
        ("onnxruntime", "1.31.1"),
        ("jax", "0.12.0"),
        ("tensorflow", "2.21.0"),
    ] {
        let v = json(&["package", name, version]);
        assert!(
            !v["rows"].as_array().unwrap().is_empty(),
            "{name} {version}"
        );
    }
}
