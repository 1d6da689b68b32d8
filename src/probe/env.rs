//! Environment variables that steer the GPU stack.

use std::collections::BTreeMap;

use super::Ctx;
use crate::inventory::Fact;

/// Recorded when set (an empty value is recorded too: `CUDA_VISIBLE_DEVICES=""` hides every GPU).
pub const GPU_ENV_VARS: &[&str] = &[
    "CUDA_VISIBLE_DEVICES",
    "NVIDIA_VISIBLE_DEVICES",
    "NVIDIA_DRIVER_CAPABILITIES",
    "NVIDIA_REQUIRE_CUDA",
    "CUDA_VERSION",
    "LD_LIBRARY_PATH",
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_MODULE_LOADING",
    "TORCH_CUDA_ARCH_LIST",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
];

pub(crate) fn probe(ctx: &Ctx) -> BTreeMap<String, Fact<String>> {
    GPU_ENV_VARS
        .iter()
        .filter_map(|name| {
            let v = ctx.sys.env(name)?;
            Some((name.to_string(), Fact::new(v, format!("env {name}"))))
        })
        .collect()
}
