//! Subjects of the stack a report mentions (MIG, NVSwitch, onnxruntime,
//! TensorRT, cuDNN, CUDA_VISIBLE_DEVICES / LD_LIBRARY_PATH, the GPU itself), each with the
//! first line that does. They back the hint rules, which speak only when no
//! rule names a cause.

use super::clean::{floor_boundary, Doc};
use super::gate::Gate;
use super::Builder;
use crate::inventory::{Mention, Topic};

/// Words (lowercase, matched at word boundaries) that mention each topic;
/// a line is read only when it holds one's key word (see [`super::gate`]).
pub(super) const TOPICS: &[(Topic, &[&str])] = &[
    (Topic::Mig, &["mig", "multi-instance gpu"]),
    (
        Topic::Nvswitch,
        &[
            "nvswitch",
            "fabricmanager",
            "fabric manager",
            "fabric-manager",
        ],
    ),
    (
        Topic::Onnxruntime,
        &["onnxruntime", "onnxruntime-gpu", "cudaexecutionprovider"],
    ),
    (
        Topic::Tensorrt,
        &["tensorrt", "tensorrt-llm", "libnvinfer", "trtexec"],
    ),
    (Topic::Cudnn, &["cudnn", "libcudnn"]),
    (Topic::EnvVar, &["cuda_visible_devices", "ld_library_path"]),
    (
        Topic::Gpu,
        &[
            "gpu", "gpus", "cuda", "nvidia", "nvcc", "rocm", "radeon", "amd",
        ],
    ),
    (
        Topic::Collective,
        &[
            "nccl",
            "all_reduce",
            "allreduce",
            "all_reduce_perf",
            "all_gather",
            "tensor parallel",
            "tensor_parallel_size",
            "tensor-parallel",
            "ddp",
            "distributeddataparallel",
            "mirroredstrategy",
        ],
    ),
];

/// Words that make a line read as a failure.
pub(super) const FAILING: &[&str] = &[
    "error",
    "fail",
    "not found",
    "could not",
    "couldn't",
    "cannot",
    "can't",
    "unable",
    "invalid",
    "mismatch",
    "missing",
    "no such",
    "not available",
    "undefined",
    "crash",
    "segmentation fault",
    "segfault",
    "core dumped",
    "unsupported",
    "not supported",
    "not work",
    "doesn't work",
    "not detect",
    "only one",
    "only the first",
    "no gpu",
    "no device",
    "not appear",
    "not show",
    "not recogni",
    "not discover",
    "never",
    "no longer",
    // "the macOS build lacks CUDA support".
    "lack",
];

/// Words that say a run never returns, a failure too (with a space where a
/// longer word holds one: `change`, `install`; `freeze` for the gate's key
/// word, which `freez` does not give).
pub(super) const HANGS: &[&str] = &[
    " hang", " hung", "stuck", " stall", "freez", "freeze", "deadlock",
];

/// Messages that name a subject and are known to be harmless.
const HARMLESS: &[&str] = &[
    // TensorFlow's optional TF-TRT probing.
    "tf-trt warning",
    "could not find tensorrt",
    "could not load dynamic library 'libnvinfer",
    // Paddle's probe of its optional TensorRT engine at import.
    "tensorrt dynamic library (libnvinfer",
    // TensorFlow's plugin registration noise.
    "unable to register cudnn factory",
    // collect_env when torch's own cuDNN is the only one.
    "could not collect",
];

/// `needle` in `hay` with no letter or digit on either side.
fn has_word(hay: &str, needle: &str) -> bool {
    let b = hay.as_bytes();
    let mut from = 0;
    while let Some(p) = hay[from..].find(needle) {
        let at = from + p;
        let end = at + needle.len();
        let before = at == 0 || !b[at - 1].is_ascii_alphanumeric();
        let after = end >= b.len() || !b[end].is_ascii_alphanumeric();
        if before && after {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The first line of each topic, or the first that reads as a failure.
pub fn scan(doc: &Doc, b: &mut Builder) {
    let mentions = &mut b.inv.setting.mentions;
    for line in &doc.lines {
        if mentions.len() == TOPICS.len() && mentions.iter().all(|m| m.failing) {
            return;
        }
        // nvidia-smi's table names MIG in every header.
        // A line naming only the GPU itself counts when it may read as a
        // failure and no failing one was kept yet (every nvidia-smi CSV row
        // names NVIDIA).
        let gpu_only = !line.gate(Gate::Topic)
            && line.gate(Gate::GpuWord)
            && line.gate(Gate::Failing)
            && !mentions.iter().any(|m| m.topic == Topic::Gpu && m.failing);
        if !(line.gate(Gate::Topic) || gpu_only) || line.text.trim_start().starts_with('|') {
            continue;
        }
        let lower = line.text.to_ascii_lowercase();
        for (topic, words) in TOPICS {
            let at = mentions.iter().position(|m| m.topic == *topic);
            if at.is_some_and(|i| mentions[i].failing) {
                continue;
            }
            if !words.iter().any(|w| has_word(&lower, w)) {
                continue;
            }
            // Collective work reads as failing only when it hangs: an NCCL
            // error names its own cause, which the catalog reads.
            let hangs = HANGS.iter().any(|w| lower.contains(w));
            let said = if *topic == Topic::Collective {
                hangs
            } else {
                hangs || FAILING.iter().any(|w| lower.contains(w))
            };
            let failing = said && !HARMLESS.iter().any(|w| lower.contains(w));
            // The GPU itself is named everywhere: only a failing line says something.
            if (at.is_some() || *topic == Topic::Gpu) && !failing {
                continue;
            }
            let t = line.text.trim();
            let m = Mention {
                topic: *topic,
                text: t[..floor_boundary(t, 160)].to_string(),
                source: line.src.to_string(),
                failing,
            };
            match at {
                Some(i) => mentions[i] = m,
                None => mentions.push(m),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::ingest;
    use crate::inventory::Topic;

    fn topics(text: &str) -> Vec<Topic> {
        ingest(&[("t".to_string(), text.to_string())])
            .setting
            .mentions
            .iter()
            .map(|m| m.topic)
            .collect()
    }

    #[test]
    fn mentions_at_word_boundaries() {
        assert_eq!(
            topics("The A100s are split with MIG\nexport CUDA_VISIBLE_DEVICES=0\n"),
            [Topic::Mig, Topic::EnvVar]
        );
        assert_eq!(topics("CUDNN_STATUS_INTERNAL_ERROR\n"), [Topic::Cudnn]);
        assert!(
            topics("mycudnnwrapper failed\n").is_empty(),
            "inside a longer word"
        );
        assert_eq!(topics("Could not create cudnn handle\n"), [Topic::Cudnn]);
        assert!(topics("we might migrate the fabric later\n").is_empty());
        let inv = ingest(&[(
            "t".to_string(),
            "cuDNN version: Could not collect\nCould not create cudnn handle\n".to_string(),
        )]);
        let m = &inv.setting.mentions[0];
        assert!(m.failing, "the later failing line is the one kept");
        assert_eq!(m.text, "Could not create cudnn handle");
    }

    #[test]
    fn the_gpu_itself_only_in_a_failing_line() {
        assert!(topics("Using device cuda:0\nThe GPU is an RTX 3090\n").is_empty());
        // MouseLand/cellpose#366, as reported.
        assert_eq!(
            topics("They say the GPU does not appear on screen and ask for help.\n"),
            [Topic::Gpu]
        );
        assert_eq!(
            topics("Check failed: num_cuda_devices > 0 (0 vs. 0)\n"),
            [Topic::Gpu]
        );
    }
}
