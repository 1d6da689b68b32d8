//! The smoke report's findings (`SMK001`…): one per failure met on the way
//! to a GEMM, with its evidence and its fix, in the categories `check` uses.
//! The failure types are in [`super::failure`], the code tables in
//! [`super::codes`], the rules and their docs in [`super::rules`], the
//! shared-vocabulary form in [`super::observed`].

use crate::finding::{Finding, Severity};

pub use super::codes::{
    classify_cublas, classify_cuda, cublas_status_name, cuda_error_name, visible_devices_hide_gpus,
};
pub use super::failure::{Context, Failure};
pub use super::observed::observed;
pub use super::rules::*;

use super::codes::{cublas_major, no_device};

fn base(rule: &SmokeRule, message: String) -> Finding {
    Finding {
        code: rule.code.to_string(),
        name: rule.name.to_string(),
        category: rule.category,
        severity: rule.severity,
        message,
        evidence: Vec::new(),
        kb: Vec::new(),
        fix: None,
        line: None,
    }
}

pub(super) fn on_device(device: Option<u32>) -> String {
    device.map(|d| format!(" on GPU {d}")).unwrap_or_default()
}

/// Evidence common to every driver-side finding.
fn with_context(mut f: Finding, device: Option<u32>, ctx: &Context) -> Finding {
    if let Some(lib) = &ctx.driver_library {
        f = f.evidence("CUDA driver library", lib, "dlopen");
    }
    if let Some(v) = ctx.driver_cuda {
        f = f.evidence("driver's CUDA version", v, "cuDriverGetVersion");
    }
    if let Some(d) = device {
        if let Some((_, name, cc)) = ctx.devices.iter().find(|(i, _, _)| *i == d) {
            if let Some(name) = name {
                f = f.evidence(format!("GPU {d} name"), name, "cuDeviceGetName");
            }
            if let Some(cc) = cc {
                f = f.evidence(
                    format!("GPU {d} compute capability"),
                    format!("{cc} ({})", cc.sm()),
                    "cuDeviceGetAttribute",
                );
            }
        }
    }
    f
}

/// The smoke report's finding for a failure.
pub fn finding(failure: &Failure, ctx: &Context) -> Finding {
    match failure {
        Failure::NotLive { root } => base(
            &SMOKE_NEEDS_LIVE_MACHINE,
            format!(
                "smoke needs the live machine: it runs a GEMM on the GPU, and {root} is a directory tree, \
                 not a running system; nothing was loaded from it"
            ),
        )
        .evidence("--root", root, "command line")
        .fix_command(
            "gpucompat smoke",
            Some("run it on the machine (or inside the container) itself".into()),
        ),
        Failure::LibcudaMissing {
            tried,
            overridden,
            wsl,
        } => libcuda_missing(tried, *overridden, *wsl),
        Failure::SymbolMissing { library, symbol } => base(
            &LIBCUDA_INCOMPLETE,
            format!(
                "{library} has no {symbol}: the driver is too old for the driver API calls the smoke \
                 test makes, or the file is not the CUDA driver"
            ),
        )
        .evidence("library", library, "dlopen")
        .evidence("missing symbol", symbol, "dlsym")
        .fix_note("Install a current NVIDIA driver; check that GPUCOMPAT_LIBCUDA / LD_LIBRARY_PATH point at the driver's libcuda.so.1."),
        Failure::Cuda {
            call,
            code,
            name,
            text,
            device,
        } => cuda_finding(call, *code, name, text, *device, ctx),
        Failure::NoDevices => {
            let (rule, _) = no_device(ctx);
            let f = base(
                rule,
                "no CUDA device: cuDeviceGetCount found 0 GPUs".to_string(),
            );
            no_device_advice(with_context(f, None, ctx), rule, ctx)
        }
        Failure::CublasMissing { tried, required } => {
            let names: Vec<&str> = tried.iter().map(|(p, _)| p.as_str()).collect();
            let mut f = base(
                &NO_SYSTEM_CUBLAS,
                if *required {
                    format!("cuBLAS cannot be loaded (tried {}), and --gemm cublas asks for it", names.join(", "))
                } else {
                    format!(
                        "no system cuBLAS (tried {}): the GEMM ran on gpucompat's built-in PTX kernel. \
                         A driver-only machine is normal: PyTorch, JAX and TensorFlow wheels bring their own cuBLAS",
                        names.join(", ")
                    )
                },
            );
            if *required {
                f.severity = Severity::Error;
            }
            for (p, e) in tried {
                f = f.evidence(format!("dlopen {p}"), e, "dlopen");
            }
            f.fix_note("Nothing to fix for frameworks that ship cuBLAS; to test a system cuBLAS, install the CUDA toolkit's libcublas or point GPUCOMPAT_LIBCUBLAS at one.")
        }
        Failure::Cublas {
            call,
            status,
            device,
            version,
        } => cublas_finding(call, *status, *device, version, ctx),
        Failure::Timeout {
            step,
            device,
            after,
        } => {
            let f = base(
                &GPU_HUNG,
                format!(
                    "{step}{} did not return within {:.1} s: the GPU or driver is hung; the call was left running and the smoke test stopped",
                    on_device(*device),
                    after.as_secs_f64()
                ),
            )
            .evidence("hung step", step, "smoke");
            with_context(f, *device, ctx).fix_note(
                "Check `nvidia-smi` and `sudo dmesg | grep -i xid` for GPU errors; a GPU reset (`nvidia-smi -r -i N`) or a reboot may be needed. Raise --timeout if the machine is merely slow (many GPUs without persistence mode).",
            )
        }
        Failure::WrongResult {
            device,
            backend,
            cmp,
            tolerance,
        } => {
            let mut f = base(
                &GEMM_WRONG_RESULT,
                format!(
                    "GPU {device} computed a wrong fp16 GEMM ({backend}): {} of {} elements differ from the CPU reference by more than {tolerance}{}",
                    cmp.wrong,
                    super::gemm::N * super::gemm::N,
                    if cmp.non_finite > 0 { format!(", {} are NaN or infinite", cmp.non_finite) } else { String::new() }
                ),
            )
            .evidence(format!("GPU {device} max abs error"), cmp.max_abs_err, "smoke GEMM vs CPU reference");
            if let Some((r, c, got, want)) = cmp.first_wrong {
                f = f.evidence(
                    format!("GPU {device} C[{r}][{c}]"),
                    format!("{got} (CPU reference: {want})"),
                    "smoke GEMM vs CPU reference",
                );
            }
            with_context(f, Some(*device), ctx).fix_note(
                "Wrong numbers with no error point at the hardware or driver: check `nvidia-smi -q -d ECC` and `sudo dmesg | grep -i xid`, update the driver, and reset or replace the GPU if it persists.",
            )
        }
        Failure::WorkerLost { detail } => base(
            &SMOKE_WORKER_FAILED,
            format!("the smoke test stopped without a result: {detail}"),
        )
        .fix_note("This is a gpucompat bug; please report it with `gpucompat smoke --json -v` output."),
    }
}

fn libcuda_missing(tried: &[(String, String)], overridden: bool, wsl: bool) -> Finding {
    let first = tried
        .first()
        .map(|(p, _)| p.as_str())
        .unwrap_or("libcuda.so.1");
    let (rule, message) = if wsl && !overridden {
        (
            &WSL_NO_LIBCUDA,
            "no CUDA driver: libcuda.so.1 cannot be loaded (WSL: it comes from the Windows driver, in /usr/lib/wsl/lib)".to_string(),
        )
    } else if overridden {
        (
            &NO_CUDA_DRIVER,
            format!("no CUDA driver: {first} (GPUCOMPAT_LIBCUDA) cannot be loaded"),
        )
    } else {
        (
            &NO_CUDA_DRIVER,
            "no CUDA driver: libcuda.so.1 cannot be loaded".to_string(),
        )
    };
    let mut f = base(rule, message);
    for (p, e) in tried {
        f = f.evidence(format!("dlopen {p}"), e, "dlopen");
    }
    if rule.code == WSL_NO_LIBCUDA.code {
        f.fix_note("Install or update the NVIDIA driver on Windows (not inside WSL), then `wsl --shutdown`; do not install a Linux NVIDIA driver in the distribution. Check that /usr/lib/wsl/lib is in the loader path (`ldconfig -p | grep libcuda`).")
    } else {
        f.fix_note("Install the NVIDIA driver for this GPU (Ubuntu: `sudo ubuntu-drivers install`), or in a container run with the NVIDIA Container Toolkit (`docker run --gpus all ...`). If the driver is installed, check `ldconfig -p | grep libcuda`.")
    }
}

fn cuda_finding(
    call: &str,
    code: i32,
    name: &Option<String>,
    text: &Option<String>,
    device: Option<u32>,
    ctx: &Context,
) -> Finding {
    let (rule, _) = classify_cuda(code, call, ctx);
    let known = cuda_error_name(code);
    let name = name
        .clone()
        .or_else(|| known.map(|k| k.0.to_string()))
        .unwrap_or_else(|| "CUDA error".to_string());
    let text = text.clone().or_else(|| known.map(|k| k.1.to_string()));
    let described = match &text {
        Some(t) => format!("{name} ({code}): {t}"),
        None => format!("{name} ({code})"),
    };
    let why = match rule.code {
        "SMK003" => "the libcuda that was loaded is the CUDA toolkit's link-time stub, not the driver",
        "SMK005" => "the driver is installed but could not start",
        "SMK006" => "the driver is older than the CUDA runtime in use",
        "SMK007" => "cuda-compat forward-compatibility libraries are loaded, and this GPU does not support them",
        "SMK008" => "the user-mode driver (libcuda) and the nvidia kernel module are of different versions",
        "SMK009" => "on an NVSwitch system (HGX/DGX) this means Fabric Manager is not running or does not match the driver",
        "SMK010" => "the driver loaded but sees no GPU",
        "SMK011" => "CUDA_VISIBLE_DEVICES leaves no GPU visible",
        "SMK012" => "another process holds the GPU (exclusive-process compute mode) or it is otherwise unavailable",
        "SMK013" => "the code has no binary for this GPU's architecture",
        "SMK014" => "the PTX comes from a newer toolkit than the driver's JIT compiler",
        "SMK015" => "other processes hold the GPU's memory; this is not a compatibility problem",
        "SMK016" => "the GPU did not finish the work",
        _ => "the driver rejected the call",
    };
    let f = base(
        rule,
        format!("{call} failed{}: {described}; {why}", on_device(device)),
    )
    .evidence("CUDA call", call, "smoke")
    .evidence("CUDA error", format!("{name} ({code})"), "CUresult");
    let f = with_context(f, device, ctx);
    match rule.code {
        "SMK003" => f.fix_note("Remove the toolkit's stubs directory (…/lib64/stubs) from LD_LIBRARY_PATH and the ld.so configuration; the real libcuda.so.1 comes with the driver."),
        "SMK005" => f.fix_note("Check `nvidia-smi`; load the modules (`sudo modprobe nvidia nvidia-uvm`), check that /dev/nvidia* and /dev/nvidia-uvm exist and are readable, and reboot after a driver update."),
        "SMK006" => f.fix_note(format!(
            "Update the NVIDIA driver, or use a CUDA build the driver supports{}.",
            ctx.driver_cuda.map(|v| format!(" (this driver supports CUDA {v} at most)")).unwrap_or_default()
        )),
        "SMK007" => f.fix_note("Remove the cuda-compat libraries (/usr/local/cuda*/compat) from LD_LIBRARY_PATH and the ld.so configuration, or upgrade the driver itself; forward compatibility works only on data-center GPUs."),
        "SMK008" => f.fix_note("Reboot after a driver update so the kernel module matches libcuda, or reinstall the driver so both come from one version (compare `cat /proc/driver/nvidia/version` with the libcuda.so.* version)."),
        "SMK009" => f.fix_command(
            "sudo systemctl enable --now nvidia-fabricmanager",
            Some("install nvidia-fabricmanager of exactly the driver's version first (package cuda-drivers-fabricmanager-<branch>)".into()),
        ),
        "SMK010" => no_device_advice(f, rule, ctx),
        "SMK011" => no_device_advice(f, rule, ctx),
        "SMK012" => f.fix_note("See who holds the GPU (`nvidia-smi`) and its compute mode (`nvidia-smi -q -d COMPUTE`); set Default mode (`sudo nvidia-smi -c DEFAULT`) or wait for the other process."),
        "SMK013" => f.fix_note("Use a build of the library that includes this GPU's architecture (or PTX it can JIT), or a GPU the build supports."),
        "SMK014" => f.fix_note("Update the NVIDIA driver to one that supports the toolkit that produced the PTX."),
        "SMK015" => f.fix_note("Free GPU memory: see the processes holding it with `nvidia-smi`."),
        "SMK016" => f.fix_note("Check `sudo dmesg | grep -i xid`; a GPU reset or reboot may be needed."),
        _ => f.fix_note("Check `nvidia-smi` and `sudo dmesg | grep -i xid`; rerun with -v and report the error if it persists."),
    }
}

fn no_device_advice(f: Finding, rule: &SmokeRule, ctx: &Context) -> Finding {
    if rule.code == VISIBLE_DEVICES_HIDE_GPUS.code {
        let v = ctx.visible_devices.clone().unwrap_or_default();
        f.evidence("CUDA_VISIBLE_DEVICES", format!("{v:?}"), "environment")
            .fix_command(
                "unset CUDA_VISIBLE_DEVICES",
                Some("or set it to indices or GPU UUIDs that exist (`nvidia-smi -L`)".into()),
            )
    } else {
        let f = match &ctx.visible_devices {
            Some(v) => f.evidence("CUDA_VISIBLE_DEVICES", format!("{v:?}"), "environment"),
            None => f,
        };
        f.fix_note("Check `nvidia-smi -L`; in a container, pass the GPUs (`docker run --gpus all`, or the nvidia.com/gpu resource in Kubernetes); on a VM, check that the GPU is passed through.")
    }
}

fn cublas_finding(
    call: &str,
    status: i32,
    device: Option<u32>,
    version: &Option<String>,
    ctx: &Context,
) -> Finding {
    let (rule, _) = classify_cublas(status, version, ctx);
    let name = cublas_status_name(status).unwrap_or("cuBLAS status");
    let ver = version
        .as_deref()
        .map(|v| format!("cuBLAS {v}"))
        .unwrap_or_else(|| "cuBLAS".into());
    let message = match rule.code {
        "SMK021" => format!(
            "{call} failed{}: {name} ({status}); {ver} needs a driver for CUDA {}, and this driver supports CUDA {} at most",
            on_device(device),
            cublas_major(version).unwrap_or(0),
            ctx.driver_cuda.map(|v| v.to_string()).unwrap_or_else(|| "unknown".into()),
        ),
        "SMK013" => format!(
            "{call} failed{}: {name} ({status}); {ver} has no kernels for this GPU's architecture",
            on_device(device)
        ),
        _ => format!("{call} failed{}: {name} ({status}) from {ver}", on_device(device)),
    };
    let mut f = base(rule, message)
        .evidence("cuBLAS call", call, "smoke")
        .evidence(
            "cuBLAS status",
            format!("{name} ({status})"),
            "cublasStatus_t",
        );
    if let Some(v) = version {
        f = f.evidence("cuBLAS version", v, "cublasGetProperty");
    }
    let f = with_context(f, device, ctx);
    match rule.code {
        "SMK021" => f.fix_note("Update the NVIDIA driver, or use the cuBLAS of the CUDA major the driver supports."),
        "SMK015" => f.fix_note("Free GPU memory: see the processes holding it with `nvidia-smi`."),
        "SMK013" => f.fix_note("Use a cuBLAS (CUDA toolkit) that supports this GPU's architecture."),
        _ => f.fix_note("Check that cuBLAS and the driver are of compatible versions (`gpucompat check`); rerun with -v."),
    }
}

#[cfg(test)]
#[path = "errors_tests.rs"]
mod tests;
