//! Hints: when no rule names a cause, what the report mentions still says
//! where to look (MIG, NVSwitch, WSL2, onnxruntime, TensorRT, cuDNN, the
//! environment). Info findings, at most one per report, and none beside a
//! warning or an error (see [`super::run_rules`]).

use crate::finding::{Category, Finding, Severity};
use crate::inventory::{Inventory, Mention, Topic};
use crate::kb::Kb;

use super::{Docs, Rule};

pub static RULES: &[&Rule] = &[
    &HINT001, &HINT002, &HINT003, &HINT004, &HINT005, &HINT006, &HINT007,
];

/// One hint rule: its code, name, category, the topic that makes it speak,
/// what to say and check, and its sources.
macro_rules! hint_rule {
    ($id:ident, $fn:ident, $code:literal, $name:literal, $cat:expr, $topic:expr,
     $subject:literal, $why:literal, $fix:literal, $sources:expr) => {
        pub static $id: Rule = Rule {
            code: $code,
            name: $name,
            category: $cat,
            severity: Severity::Info,
            summary: concat!("No rule names a cause, and the report mentions ", $subject, ": where to look."),
            semantics: &[],
            docs: Docs {
                what_it_checks: concat!("Reports in which no rule found a warning or an error but a line mentions ", $subject, ". Only the first hint that applies is kept (in code order), and none when another finding already names its category."),
                why_it_breaks: $why,
                how_to_fix: $fix,
                sources: $sources,
            },
            check: $fn,
            superseded_by: &[],
        };

        fn $fn(inv: &Inventory, _kb: &Kb) -> Vec<Finding> {
            hint(&$id, inv, $topic, $subject)
        }
    };
}

fn mention(inv: &Inventory, topic: Topic) -> Option<&Mention> {
    inv.setting.mentions.iter().find(|m| m.topic == topic)
}

fn hint(rule: &'static Rule, inv: &Inventory, topic: Option<Topic>, subject: &str) -> Vec<Finding> {
    // A mention in a line that reads as a failure, or any mention beside an
    // error the catalog read: a working setup's lines that name cuDNN or
    // TensorRT say nothing is wrong.
    let failing = |m: &&Mention| m.failing || !inv.errors.is_empty();
    let seen = match topic {
        Some(t) => mention(inv, t)
            .filter(failing)
            .map(|m| (m.text.clone(), m.source.clone())),
        // WSL2 is a platform fact of the report, not a mention.
        None => inv
            .wsl
            .is_wsl
            .as_ref()
            .filter(|f| f.value && !inv.errors.is_empty())
            .map(|f| ("WSL2".to_string(), f.source.clone())),
    };
    let Some((text, source)) = seen else {
        return vec![];
    };
    let f = rule
        .finding(format!(
            "No rule found a cause here, but the report mentions {subject}: {} {}",
            rule.docs.why_it_breaks, "This is a hint from the report's words, not a verdict."
        ))
        .evidence(format!("mention of {subject}"), text, source);
    vec![f.fix_note(rule.docs.how_to_fix)]
}

hint_rule!(HINT001, check_hint001, "HINT001", "hint-mig", Category::Mig, Some(Topic::Mig),
    "MIG",
    "under MIG a GPU is not a CUDA device itself, each compute instance is: CUDA_VISIBLE_DEVICES takes MIG UUIDs, a process enumerates one MIG instance (CUDA 11 and 12), and a GPU in MIG mode with no instances gives CUDA no device.",
    "Run `nvidia-smi -L` (MIG devices and their UUIDs) and `nvidia-smi mig -lgi`; select an instance with `CUDA_VISIBLE_DEVICES=MIG-<uuid>` and run one process per instance.",
    &["https://docs.nvidia.com/datacenter/tesla/mig-user-guide/ (CUDA device enumeration)"]);

hint_rule!(HINT002, check_hint002, "HINT002", "hint-nvswitch", Category::FabricManager, Some(Topic::Nvswitch),
    "NVSwitch or the fabric manager",
    "on NVSwitch systems (HGX, DGX) CUDA and NCCL need nvidia-fabricmanager running at exactly the driver's version; without it CUDA reports 'system not yet initialized' and NVLink collectives fail.",
    "Run `systemctl status nvidia-fabricmanager` and `nvidia-smi -q | grep -i -A2 fabric`; install the fabric manager of the driver's exact version and start it.",
    &["https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/"]);

hint_rule!(HINT003, check_hint003, "HINT003", "hint-wsl", Category::Wsl, None,
    "WSL2",
    "under WSL2 the GPU comes from the Windows driver through /usr/lib/wsl/lib and /dev/dxg; a Linux NVIDIA driver installed inside WSL, a libcuda from elsewhere on the loader path, or a Windows driver too old for WSL CUDA breaks it.",
    "In WSL run `ls /usr/lib/wsl/lib; ls -l /dev/dxg; nvidia-smi`; install or update the NVIDIA driver on Windows only, never a Linux driver inside WSL (the CUDA toolkit for WSL-Ubuntu is fine).",
    &["https://docs.nvidia.com/cuda/wsl-user-guide/index.html"]);

hint_rule!(HINT004, check_hint004, "HINT004", "hint-onnxruntime", Category::OnnxruntimeCuda, Some(Topic::Onnxruntime),
    "onnxruntime",
    "onnxruntime-gpu's CUDA execution provider loads only when its CUDA and cuDNN majors match the libraries it finds, and the CPU-only onnxruntime package installed beside it takes precedence; otherwise sessions quietly fall back to the CPU.",
    "Run `python -c \"import onnxruntime as ort; print(ort.__version__, ort.get_device(), ort.get_available_providers())\"` and `pip list | grep -i onnxruntime`; keep only onnxruntime-gpu, of a release built for the installed CUDA and cuDNN majors.",
    &["https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements"]);

hint_rule!(HINT005, check_hint005, "HINT005", "hint-tensorrt", Category::TensorrtMismatch, Some(Topic::Tensorrt),
    "TensorRT",
    "a TensorRT engine runs only under the TensorRT version it was built with (and on its GPU architecture), and the TensorRT libraries must match the CUDA major they were built for.",
    "Compare `python -c \"import tensorrt; print(tensorrt.__version__)\"` (or `ldconfig -p | grep nvinfer`) with the version the engine was built with; rebuild the engine with the TensorRT that runs it.",
    &["https://docs.nvidia.com/deeplearning/tensorrt/latest/getting-started/support-matrix.html"]);

hint_rule!(HINT006, check_hint006, "HINT006", "hint-cudnn", Category::CudnnMismatch, Some(Topic::Cudnn),
    "cuDNN",
    "cuDNN must be of the major the framework was built for, and the copy on the loader path (a system libcudnn, one in LD_LIBRARY_PATH) can shadow the one the wheel brings.",
    "Run `ldconfig -p | grep cudnn`, `pip list | grep -i cudnn` and the framework's own view (for torch `python -c \"import torch; print(torch.backends.cudnn.version())\"`, for jax `pip list | grep -E 'jax|nvidia-cudnn'`); keep one cuDNN of the framework's major on the path.",
    &["https://docs.nvidia.com/deeplearning/cudnn/latest/reference/support-matrix.html"]);

hint_rule!(HINT007, check_hint007, "HINT007", "hint-env", Category::EnvVar, Some(Topic::EnvVar),
    "CUDA_VISIBLE_DEVICES or LD_LIBRARY_PATH",
    "CUDA_VISIBLE_DEVICES decides which GPUs a process sees (empty, quoted or out of range hides them all), and LD_LIBRARY_PATH can put another CUDA's libraries before the ones a wheel brings.",
    "In the failing process print them (`env | grep -E 'CUDA_VISIBLE_DEVICES|LD_LIBRARY_PATH'`); unset CUDA_VISIBLE_DEVICES or set it to plain indices or UUIDs, and take other CUDA installs off LD_LIBRARY_PATH.",
    &["https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#env-vars"]);

/// Keep at most one hint: none beside a warning or an error, or when another
/// finding already names the hint's category; else the first in code order.
pub fn settle(findings: &mut Vec<Finding>) {
    let is_hint = |f: &Finding| f.code.starts_with("HINT");
    let loud = findings
        .iter()
        .any(|f| !is_hint(f) && f.severity >= Severity::Warning);
    let named: Vec<Category> = findings
        .iter()
        .filter(|f| !is_hint(f))
        .map(|f| f.category)
        .collect();
    let mut kept = false;
    findings.retain(|f| {
        if !is_hint(f) {
            return true;
        }
        let keep = !loud && !kept && !named.contains(&f.category);
        kept |= keep;
        keep
    });
}
