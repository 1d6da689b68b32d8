//! Benchmark (ignored by `cargo test`; run by benches/python_envs.sh):
//! discovery and reading of 20 environments × 300 packages. Budget: 30 ms median.

// Tests report measurements and skips on the console.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use gpucompat::probe::python::discover;
use gpucompat::probe::ProbeOptions;
use gpucompat::system::Host;

const ENVS: usize = 20;
const PACKAGES: usize = 300;
const RUNS: usize = 50;

fn dist(site: &Path, name: &str, version: &str) {
    let d = site.join(format!("{name}-{version}.dist-info"));
    fs::create_dir_all(&d).unwrap();
    fs::write(
        d.join("METADATA"),
        format!("Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: bench\n\nA long description.\n"),
    )
    .unwrap();
    fs::write(d.join("RECORD"), "").unwrap();
}

/// 20 conda environments, each with 300 distributions of which 30 are ML ones.
fn machine(root: &Path) {
    let mut environ = Vec::new();
    for kv in [
        "HOME=/home/u",
        "PWD=/home/u",
        "PATH=/home/u/miniconda3/bin:/usr/bin:/bin",
        "CONDA_EXE=/home/u/miniconda3/bin/conda",
    ] {
        environ.extend_from_slice(kv.as_bytes());
        environ.push(0);
    }
    fs::create_dir_all(root.join("proc/self")).unwrap();
    fs::write(root.join("proc/self/environ"), environ).unwrap();
    const ML: [(&str, &str); 30] = [
        ("torch", "2.5.1"),
        ("torchvision", "0.20.1"),
        ("torchaudio", "2.5.1"),
        ("triton", "3.1.0"),
        ("xformers", "0.0.28.post3"),
        ("flash_attn", "2.6.3"),
        ("onnxruntime_gpu", "1.22.0"),
        ("onnx", "1.17.0"),
        ("tensorrt_cu12", "10.6.0"),
        ("tensorrt_cu12_libs", "10.6.0"),
        ("tensorrt_cu12_bindings", "10.6.0"),
        ("jax", "0.4.35"),
        ("jaxlib", "0.4.35"),
        ("jax_cuda12_plugin", "0.4.35"),
        ("jax_cuda12_pjrt", "0.4.35"),
        ("cupy_cuda12x", "13.3.0"),
        ("bitsandbytes", "0.44.1"),
        ("vllm", "0.6.4"),
        ("nvidia_cuda_runtime_cu12", "12.4.127"),
        ("nvidia_cudnn_cu12", "9.1.0.70"),
        ("nvidia_cublas_cu12", "12.4.5.8"),
        ("nvidia_cufft_cu12", "11.2.1.3"),
        ("nvidia_curand_cu12", "10.3.5.147"),
        ("nvidia_cusolver_cu12", "11.6.1.9"),
        ("nvidia_cusparse_cu12", "12.3.1.170"),
        ("nvidia_nccl_cu12", "2.21.5"),
        ("nvidia_nvtx_cu12", "12.4.127"),
        ("nvidia_nvjitlink_cu12", "12.4.127"),
        ("nvidia_cuda_nvrtc_cu12", "12.4.127"),
        ("nvidia_cuda_cupti_cu12", "12.4.127"),
    ];
    for i in 0..ENVS {
        let prefix = root.join(format!("home/u/miniconda3/envs/env{i:02}"));
        fs::create_dir_all(prefix.join("conda-meta")).unwrap();
        fs::write(
            prefix.join("conda-meta/python-3.12.4-h5148396_1.json"),
            "{}",
        )
        .unwrap();
        fs::create_dir_all(prefix.join("bin")).unwrap();
        fs::write(prefix.join("bin/python3.12"), "").unwrap();
        std::os::unix::fs::symlink("python3.12", prefix.join("bin/python3")).unwrap();
        let site = prefix.join("lib/python3.12/site-packages");
        for (n, v) in ML {
            dist(&site, n, v);
        }
        for j in 0..PACKAGES - ML.len() {
            dist(&site, &format!("package_{j:03}"), "1.0.0");
        }
        fs::create_dir_all(site.join("torch")).unwrap();
        fs::write(
            site.join("torch/version.py"),
            "__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\ngit_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip: Optional[str] = None\n",
        )
        .unwrap();
        fs::create_dir_all(site.join("onnxruntime/capi")).unwrap();
        fs::write(
            site.join("onnxruntime/capi/build_and_package_info.py"),
            "package_name = 'onnxruntime-gpu'\n__version__ = '1.22.0'\ncuda_version = '12.2'\n",
        )
        .unwrap();
    }
}

#[test]
#[ignore = "benchmark: run benches/python_envs.sh"]
fn bench_20_environments_of_300_packages() {
    let dir = tempfile::tempdir().unwrap();
    machine(dir.path());
    let host = Host::new(dir.path());
    let opts = ProbeOptions::default();
    let (envs, notes) = discover(&host, &opts);
    assert_eq!(envs.len(), ENVS, "{notes:?}");
    assert!(envs
        .iter()
        .all(|e| e.packages.len() == 30 && e.torch.is_some()));
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            let (envs, _) = discover(&host, &opts);
            let took = t.elapsed();
            assert_eq!(envs.len(), ENVS);
            took
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = times[RUNS / 2];
    println!(
        "python discovery, {ENVS} environments x {PACKAGES} packages: median {:.2} ms, min {:.2} ms, max {:.2} ms ({RUNS} runs, warm cache; budget 30 ms)",
        ms(median),
        ms(times[0]),
        ms(times[RUNS - 1])
    );
    assert!(
        median < Duration::from_millis(30),
        "median {median:?} is over the 30 ms budget"
    );
}
