//! A smoke failure as the shared vocabulary records it: an [`ObservedError`]
//! in the report's inventory, so the rules judge smoke failures as they
//! judge pasted tracebacks.

use crate::inventory::{ErrorKind, ObservedError};

use super::codes::{
    classify_cublas, classify_cuda, cublas_status_name, cuda_error_name, no_device,
};
use super::errors::on_device;
use super::failure::{Context, Failure};

/// The failure as the shared vocabulary records it, for the rules. Failures
/// that say nothing about the stack (no --root machine, a fallback taken) give None.
pub fn observed(failure: &Failure, ctx: &Context) -> Option<ObservedError> {
    let (kind, text, source, code) = match failure {
        Failure::NotLive { .. } => return None,
        Failure::CublasMissing {
            required: false, ..
        } => return None,
        Failure::CublasMissing { tried, .. } => (
            ErrorKind::CudaLibraryMissing,
            format!(
                "cuBLAS cannot be loaded: {}",
                tried
                    .iter()
                    .map(|(p, e)| format!("{p}: {e}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            "smoke: dlopen libcublas".to_string(),
            None,
        ),
        Failure::LibcudaMissing {
            tried,
            wsl,
            overridden,
        } => (
            if *wsl && !*overridden {
                ErrorKind::WslLibcuda
            } else {
                ErrorKind::LibcudaMissing
            },
            tried
                .first()
                .map(|(p, e)| format!("{p} cannot be loaded: {e}"))
                .unwrap_or_else(|| "libcuda.so.1 cannot be loaded".into()),
            "smoke: dlopen libcuda".to_string(),
            None,
        ),
        Failure::SymbolMissing { library, symbol } => (
            ErrorKind::DriverTooOld,
            format!("{library}: undefined symbol {symbol}"),
            "smoke: dlsym".to_string(),
            None,
        ),
        Failure::Cuda {
            call,
            code,
            name,
            text,
            device,
        } => {
            let (_, kind) = classify_cuda(*code, call, ctx);
            let known = cuda_error_name(*code);
            let name = name
                .clone()
                .or_else(|| known.map(|k| k.0.to_string()))
                .unwrap_or_else(|| "CUDA error".into());
            let text = text.clone().or_else(|| known.map(|k| k.1.to_string()));
            (
                kind,
                match text {
                    Some(t) => format!("{call}: {name} ({code}): {t}"),
                    None => format!("{call}: {name} ({code})"),
                },
                format!("smoke:{} {call}", on_device(*device)),
                Some(i64::from(*code)),
            )
        }
        Failure::NoDevices => {
            let (_, kind) = no_device(ctx);
            (
                kind,
                "cuDeviceGetCount: 0 devices".to_string(),
                "smoke: cuDeviceGetCount".to_string(),
                None,
            )
        }
        Failure::Cublas {
            call,
            status,
            device,
            version,
        } => {
            let (_, kind) = classify_cublas(*status, version, ctx);
            (
                kind,
                format!(
                    "{call}: {} ({status})",
                    cublas_status_name(*status).unwrap_or("cuBLAS status")
                ),
                format!("smoke:{} {call}", on_device(*device)),
                // cuBLAS statuses are not CUDA error codes: keep them out of `code`.
                None,
            )
        }
        Failure::Timeout {
            step,
            device,
            after,
        } => (
            ErrorKind::Timeout,
            format!(
                "{step}{} did not return within {:.1} s",
                on_device(*device),
                after.as_secs_f64()
            ),
            format!("smoke:{} {step}", on_device(*device)),
            None,
        ),
        Failure::WrongResult {
            device,
            backend,
            cmp,
            ..
        } => (
            ErrorKind::Other,
            format!(
                "fp16 GEMM ({backend}) on GPU {device}: {} wrong elements, max abs error {}",
                cmp.wrong, cmp.max_abs_err
            ),
            format!("smoke: GPU {device} GEMM"),
            None,
        ),
        Failure::WorkerLost { detail } => (
            ErrorKind::Other,
            detail.clone(),
            "smoke: worker".to_string(),
            None,
        ),
    };
    Some(ObservedError {
        kind,
        text,
        source,
        code,
    })
}
