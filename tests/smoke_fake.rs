//! `gpucompat smoke` end to end against a fake libcuda and libcublas built
//! from C by the test: loading, each CUDA / cuBLAS failure mapped to its
//! finding, the comparison with the CPU reference, and the timeouts.
//! Nothing here depends on the machine's own GPU or driver.

#![cfg(unix)]

#[path = "fakecuda/mod.rs"]
mod fakecuda;

use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

use gpucompat::smoke::{run_smoke_with, GemmChoice, SmokeOptions};
use gpucompat::system::Host;

struct Run {
    code: i32,
    json: Value,
    stderr: String,
}

/// Run `gpucompat smoke --json ARGS` against the fakes, with `env` on top.
fn smoke(env: &[(&str, &str)], args: &[&str]) -> Run {
    let fake = fakecuda::fake();
    let mut cmd = Command::cargo_bin("gpucompat").unwrap();
    cmd.env_remove("CUDA_VISIBLE_DEVICES")
        .env_remove("GPUCOMPAT_SMOKE_ALLOW_ROOT")
        .env("GPUCOMPAT_LIBCUDA", &fake.libcuda)
        .env("GPUCOMPAT_LIBCUBLAS", &fake.libcublas)
        .arg("smoke")
        .arg("--json")
        .args(args)
        .timeout(Duration::from_secs(120));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\nstderr: {stderr}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        json,
        stderr,
    }
}

fn codes(r: &Run) -> Vec<String> {
    r.json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

fn finding<'a>(r: &'a Run, code: &str) -> &'a Value {
    r.json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {:#}", r.json["findings"]))
}

#[test]
fn cublas_gemm_matches_the_cpu_reference() {
    let r = smoke(&[], &[]);
    assert_eq!(r.code, 0, "{:#}\n{}", r.json, r.stderr);
    let j = &r.json;
    assert_eq!(j["schema_version"], gpucompat::report::SCHEMA_VERSION);
    assert_eq!(j["tool"]["name"], "gpucompat");
    assert_eq!(j["driver"]["cuda_version"], "12.4");
    assert_eq!(j["driver"]["device_count"], 1);
    assert_eq!(j["cublas"]["version"], "12.4.5");
    let d = &j["devices"][0];
    assert_eq!(d["index"], 0);
    assert_eq!(d["name"], "Fake GPU 0");
    assert_eq!(d["cc"], "9.0");
    assert_eq!(d["memory_mib"], 81920);
    assert_eq!(d["gemm"]["ok"], true);
    assert_eq!(d["gemm"]["backend"], "cublas");
    assert_eq!(d["gemm"]["n"], 512);
    assert_eq!(d["gemm"]["max_abs_err"], 0.0);
    assert!(d["gemm"]["ms"].as_f64().unwrap() >= 0.0);
    assert!(codes(&r).is_empty(), "{:?}", codes(&r));
}

#[test]
fn without_cublas_the_builtin_kernel_runs_and_says_so() {
    let r = smoke(
        &[("GPUCOMPAT_LIBCUBLAS", "/nonexistent/libcublas.so.12")],
        &[],
    );
    assert_eq!(r.code, 0, "{:#}", r.json);
    assert_eq!(r.json["devices"][0]["gemm"]["backend"], "builtin");
    assert_eq!(r.json["devices"][0]["gemm"]["ok"], true);
    assert_eq!(r.json["cublas"], Value::Null);
    let f = finding(&r, "SMK019");
    assert_eq!(f["severity"], "info");
    assert!(f["evidence"][0]["fact"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/libcublas.so.12"));

    // Asking for cuBLAS makes its absence an error.
    let r = smoke(
        &[("GPUCOMPAT_LIBCUBLAS", "/nonexistent/libcublas.so.12")],
        &["--gemm", "cublas"],
    );
    assert_eq!(r.code, 1);
    assert_eq!(finding(&r, "SMK019")["severity"], "error");
    assert_eq!(r.json["devices"][0]["gemm"]["ok"], false);
}

#[test]
fn a_wrong_result_on_one_gpu_is_found_and_the_others_still_pass() {
    let r = smoke(
        &[("FAKECUDA_COUNT", "2"), ("FAKECUDA_WRONG", "1")],
        &["--gemm", "builtin"],
    );
    assert_eq!(r.code, 1);
    let devs = r.json["devices"].as_array().unwrap();
    assert_eq!(devs.len(), 2);
    assert_eq!(devs[0]["gemm"]["ok"], true);
    assert_eq!(devs[1]["gemm"]["ok"], false);
    assert_eq!(devs[1]["gemm"]["max_abs_err"], 1.0);
    assert_eq!(codes(&r), ["SMK017"]);
    let f = finding(&r, "SMK017");
    assert_eq!(f["category"], "platform_posture");
    assert!(f["message"]
        .as_str()
        .unwrap()
        .starts_with("GPU 1 computed a wrong fp16 GEMM (builtin): 1 of 262144"));
}

#[test]
fn a_wrong_cublas_result_fails() {
    let r = smoke(&[("FAKECUBLAS_SCALE", "2")], &[]);
    assert_eq!(r.code, 1);
    assert_eq!(codes(&r), ["SMK017"]);
    assert_eq!(r.json["devices"][0]["gemm"]["ok"], false);
}

#[test]
fn cuda_init_errors_become_findings() {
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case] = &[
        (&[("FAKECUDA_INIT", "999")], "SMK005", "no_driver"),
        (&[("FAKECUDA_INIT", "3")], "SMK005", "no_driver"),
        (&[("FAKECUDA_INIT", "34")], "SMK003", "env_var"),
        (&[("FAKECUDA_INIT", "802")], "SMK009", "fabric_manager"),
        (
            &[("FAKECUDA_INIT", "803")],
            "SMK008",
            "driver_library_mismatch",
        ),
        (&[("FAKECUDA_INIT", "804")], "SMK007", "driver_too_old"),
        (&[("FAKECUDA_INIT", "100")], "SMK010", "no_driver"),
        (
            &[("FAKECUDA_INIT", "100"), ("CUDA_VISIBLE_DEVICES", "")],
            "SMK011",
            "env_var",
        ),
        (
            &[("FAKECUDA_INIT", "100"), ("CUDA_VISIBLE_DEVICES", "-1")],
            "SMK011",
            "env_var",
        ),
    ];
    for (env, code, category) in cases {
        let r = smoke(env, &[]);
        assert_eq!(r.code, 1, "{env:?}");
        assert_eq!(codes(&r), [*code], "{env:?}");
        let f = finding(&r, code);
        assert_eq!(f["category"], *category, "{env:?}");
        assert_eq!(f["severity"], "error");
        assert!(r.json["devices"].as_array().unwrap().is_empty());
        // The driver was loaded and its version read before cuInit failed.
        assert_eq!(r.json["driver"]["cuda_version"], "12.4");
    }
    // The driver's own wording is carried.
    let r = smoke(&[("FAKECUDA_INIT", "802")], &[]);
    let msg = finding(&r, "SMK009")["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        msg.starts_with(
            "cuInit failed: CUDA_ERROR_SYSTEM_NOT_READY (802): system not yet initialized"
        ),
        "{msg}"
    );
    let r = smoke(
        &[("FAKECUDA_INIT", "100"), ("CUDA_VISIBLE_DEVICES", "")],
        &[],
    );
    assert_eq!(
        finding(&r, "SMK011")["fix"]["command"],
        "unset CUDA_VISIBLE_DEVICES"
    );
}

#[test]
fn per_gpu_errors_name_the_gpu_and_the_call() {
    let r = smoke(&[("FAKECUDA_LOAD", "209")], &["--gemm", "builtin"]);
    assert_eq!(r.code, 1);
    assert_eq!(codes(&r), ["SMK013"]);
    let f = finding(&r, "SMK013");
    assert_eq!(f["category"], "arch_unsupported");
    assert!(f["message"]
        .as_str()
        .unwrap()
        .starts_with("cuModuleLoadData failed on GPU 0: CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));
    let d = &r.json["devices"][0];
    assert_eq!(d["name"], "Fake GPU 0");
    assert_eq!(d["gemm"]["ok"], false);
    assert!(d["gemm"]["error"]
        .as_str()
        .unwrap()
        .contains("CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));

    let r = smoke(&[("FAKECUDA_LOAD", "222")], &["--gemm", "builtin"]);
    assert_eq!(codes(&r), ["SMK014"]);
    assert_eq!(finding(&r, "SMK014")["category"], "driver_too_old");

    let r = smoke(&[("FAKECUDA_ALLOC", "2")], &[]);
    assert_eq!(codes(&r), ["SMK015"]);

    let r = smoke(&[("FAKECUDA_CTX", "46")], &[]);
    assert_eq!(codes(&r), ["SMK012"]);

    // Every GPU is tried, and each failure is its own finding.
    let r = smoke(&[("FAKECUDA_COUNT", "2"), ("FAKECUDA_CTX", "101")], &[]);
    assert_eq!(codes(&r), ["SMK018", "SMK018"]);
    assert_eq!(r.json["devices"].as_array().unwrap().len(), 2);
}

#[test]
fn cublas_errors_become_findings() {
    // cuBLAS 13 on a driver for CUDA 12.4: the driver is too old for it.
    let r = smoke(
        &[("FAKECUBLAS_CREATE", "1"), ("FAKECUBLAS_MAJOR", "13")],
        &[],
    );
    assert_eq!(r.code, 1);
    assert_eq!(codes(&r), ["SMK021"]);
    let f = finding(&r, "SMK021");
    assert_eq!(f["category"], "driver_too_old");
    assert!(f["message"].as_str().unwrap().contains("CUDA 12.4 at most"));

    let r = smoke(&[("FAKECUBLAS_CREATE", "1")], &[]);
    assert_eq!(codes(&r), ["SMK020"]);

    let r = smoke(&[("FAKECUBLAS_GEMM", "8")], &[]);
    assert_eq!(codes(&r), ["SMK013"]);
    assert!(finding(&r, "SMK013")["message"]
        .as_str()
        .unwrap()
        .contains("cublasGemmEx failed on GPU 0: CUBLAS_STATUS_ARCH_MISMATCH (8)"));
}

#[test]
fn a_hung_gpu_is_a_finding_and_the_process_exits() {
    // The timeout leaves room for the fake's real (CPU) GEMM before the hang
    // on a loaded machine; the hung call itself never returns.
    for (hang, step, timeout) in [("sync", "cuCtxSynchronize", "5"), ("init", "cuInit", "2")] {
        let t = Instant::now();
        let r = smoke(&[("FAKECUDA_HANG", hang)], &["--timeout", timeout]);
        assert!(t.elapsed() < Duration::from_secs(60), "{hang}");
        assert_eq!(r.code, 1);
        assert_eq!(codes(&r), ["SMK016"], "{hang}");
        let f = finding(&r, "SMK016");
        let msg = f["message"].as_str().unwrap();
        assert!(msg.starts_with(step), "{hang}: {msg}");
        assert!(
            msg.contains(&format!("did not return within {timeout}.0 s")),
            "{msg}"
        );
        if hang == "sync" {
            // The GPU that hung is reported as not passing, with the reason.
            let g = &r.json["devices"][0]["gemm"];
            assert_eq!(g["ok"], false);
            assert!(g["error"]
                .as_str()
                .unwrap()
                .starts_with("cuCtxSynchronize on GPU 0"));
        }
    }
}

#[test]
fn no_driver_is_a_clean_error_finding() {
    let r = smoke(&[("GPUCOMPAT_LIBCUDA", "/nonexistent/libcuda.so.1")], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(codes(&r), ["SMK001"]);
    let f = finding(&r, "SMK001");
    assert_eq!(f["category"], "no_driver");
    assert_eq!(
        f["message"],
        "no CUDA driver: /nonexistent/libcuda.so.1 (GPUCOMPAT_LIBCUDA) cannot be loaded"
    );
    assert!(r.json["devices"].as_array().unwrap().is_empty());
    assert_eq!(r.json["driver"]["library"], Value::Null);
}

#[test]
fn a_library_without_the_driver_api_is_not_called() {
    // The fake cuBLAS has no cuInit.
    let fake = fakecuda::fake();
    let lib = fake.libcublas.to_str().unwrap();
    let r = smoke(&[("GPUCOMPAT_LIBCUDA", lib)], &[]);
    assert_eq!(r.code, 1);
    assert_eq!(codes(&r), ["SMK004"]);
}

#[test]
fn smoke_under_a_root_loads_nothing_unless_opted_in() {
    let fake = fakecuda::fake();
    let root = tempfile::tempdir().unwrap();
    let lib = root.path().join("usr/lib/x86_64-linux-gnu");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::copy(&fake.libcuda, lib.join("libcuda.so.1")).unwrap();
    let root_arg = root.path().to_str().unwrap();

    let r = smoke(&[], &["--root", root_arg]);
    assert_eq!(r.code, 2, "a --root tree cannot be smoke-tested");
    assert_eq!(codes(&r), ["SMK022"]);
    assert!(r.json["findings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("smoke needs the live machine"));

    // The test hook loads the libcuda found under the root (GPUCOMPAT_LIBCUDA
    // is a path on the probed system, so it is cleared here).
    let r = smoke(
        &[
            ("GPUCOMPAT_SMOKE_ALLOW_ROOT", "1"),
            ("GPUCOMPAT_LIBCUDA", ""),
            ("GPUCOMPAT_LIBCUBLAS", ""),
        ],
        &["--root", root_arg],
    );
    assert_eq!(r.code, 0, "{:#}", r.json);
    assert_eq!(r.json["devices"][0]["gemm"]["ok"], true);
    assert_eq!(r.json["devices"][0]["gemm"]["backend"], "builtin");
    assert!(r.json["driver"]["library"]
        .as_str()
        .unwrap()
        .starts_with(root_arg));
}

#[test]
fn the_text_report_reads_well() {
    let fake = fakecuda::fake();
    let out = Command::cargo_bin("gpucompat")
        .unwrap()
        .env_remove("CUDA_VISIBLE_DEVICES")
        .env("GPUCOMPAT_LIBCUDA", &fake.libcuda)
        .env("GPUCOMPAT_LIBCUBLAS", &fake.libcublas)
        .env("FAKECUDA_COUNT", "2")
        .env("FAKECUDA_WRONG", "1")
        .args(["smoke", "--gemm", "builtin"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout)
        .replace(fake.libcuda.to_str().unwrap(), "<libcuda>")
        .replace(fake.libcublas.to_str().unwrap(), "<libcublas>");
    let text = regex::Regex::new(r"\d+\.\d{3} ms")
        .unwrap()
        .replace_all(&text, "<t> ms")
        .into_owned();
    insta::assert_snapshot!("smoke_text_one_gpu_wrong", text);
}

#[test]
fn the_library_api_fills_an_inventory() {
    let fake = fakecuda::fake();
    let host = Host::new("/").with_env([
        (
            "GPUCOMPAT_LIBCUDA".to_string(),
            fake.libcuda.display().to_string(),
        ),
        (
            "GPUCOMPAT_LIBCUBLAS".to_string(),
            fake.libcublas.display().to_string(),
        ),
    ]);
    let opts = SmokeOptions {
        timeout: Duration::from_secs(60),
        gemm: GemmChoice::Auto,
        allow_root_libraries: false,
    };
    let r = run_smoke_with(&host, &opts);
    assert!(r.passed(), "{:#?}", r.findings);
    let inv = &r.inventory;
    assert_eq!(inv.origin, "smoke");
    assert_eq!(
        inv.nvidia.cuda_max.as_ref().unwrap().value.to_string(),
        "12.4"
    );
    assert_eq!(inv.gpus.len(), 1);
    assert_eq!(inv.gpus[0].name.as_ref().unwrap().value, "Fake GPU 0");
    assert_eq!(
        inv.gpus[0]
            .compute_capability
            .as_ref()
            .unwrap()
            .value
            .to_string(),
        "9.0"
    );
    assert!(inv.errors.is_empty());
}
