//! `smoke` as text: the driver, cuBLAS and each GPU's GEMM, then the
//! findings (the same rendering as every command) and the summary.

use std::fmt::Write as _;

use crate::kb::Kb;
use crate::report::Report;
use crate::smoke;
use crate::version::ComputeCapability;

use super::findings;

fn or_unknown(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("unknown")
}

pub fn text(report: &Report, kb: &Kb, verbose: bool) -> String {
    let mut s = String::new();
    let Some(r) = report.smoke.as_ref() else {
        return findings::lint_text(report, verbose);
    };
    let n = smoke::gemm::N;
    let _ = writeln!(
        s,
        "gpucompat smoke: fp16 GEMM {n}x{n}x{n} on every visible GPU, checked against the CPU"
    );
    if let Some(lib) = &r.driver.library {
        let _ = writeln!(
            s,
            "driver   {lib} (CUDA {})",
            or_unknown(&r.driver.cuda_version)
        );
    }
    match &r.cublas {
        Some(c) => {
            let _ = writeln!(s, "cuBLAS   {} ({})", c.library, or_unknown(&c.version));
        }
        None if r.devices.iter().any(|d| d.gemm.backend.is_some()) => {
            let _ = writeln!(s, "GEMM     gpucompat's built-in PTX kernel (no cuBLAS)");
        }
        None => {}
    }
    for d in &r.devices {
        let cc = match d.cc.as_deref().map(|c| (c, c.parse::<ComputeCapability>())) {
            Some((_, Ok(cc))) => match kb.architecture(cc) {
                Some(arch) => format!("{}, {}", cc.sm(), arch.name),
                None => cc.sm(),
            },
            Some((c, Err(_))) => format!("cc {c}"),
            None => "cc unknown".into(),
        };
        let what = format!("{} ({cc})", or_unknown(&d.name));
        let g = &d.gemm;
        if g.ok {
            let _ = writeln!(
                s,
                "GPU {}    {what}: ok ({}, max abs error {}, {:.3} ms)",
                d.index,
                g.backend.as_deref().unwrap_or("?"),
                g.max_abs_err.unwrap_or(f64::NAN),
                g.ms.unwrap_or(f64::NAN)
            );
        } else {
            let _ = writeln!(
                s,
                "GPU {}    {what}: FAILED: {}",
                d.index,
                or_unknown(&g.error)
            );
        }
    }
    s.push('\n');
    s.push_str(&findings::findings_text(report, verbose));
    let passed = r.devices.iter().filter(|d| d.gemm.ok).count();
    if r.devices.is_empty() {
        let _ = writeln!(s, "no GPU was tested");
    } else {
        let _ = writeln!(
            s,
            "{} of {} GPU(s) computed the GEMM correctly",
            passed,
            r.devices.len()
        );
    }
    s.push_str(&findings::summary_line(report));
    s
}
