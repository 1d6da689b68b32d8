//! AMD: the amdgpu module, /dev/kfd, the ROCm release, and the gfx targets
//! of the GPUs (from the KFD topology in sysfs; `rocm_agent_enumerator`
//! only when sysfs has none).

use std::path::Path;

use super::{find_program, text, Ctx, Log};
use crate::inventory::{AmdInfo, Fact};
use crate::system::CommandOutcome;

const TOPOLOGY: &str = "/sys/class/kfd/kfd/topology/nodes";

pub(crate) fn probe(ctx: &Ctx, log: &mut Log) -> AmdInfo {
    let mut a = AmdInfo::default();
    if ctx.sys.is_dir(Path::new("/sys/module/amdgpu")) {
        a.amdgpu_loaded = Some(Fact::new(true, "/sys/module/amdgpu"));
    }
    let kfd = ctx.sys.exists(Path::new("/dev/kfd"));
    if kfd {
        a.kfd_present = Some(Fact::new(true, "/dev/kfd"));
    }
    a.rocm_version = rocm_version(ctx, log);
    if a.amdgpu_loaded.is_some() || kfd || a.rocm_version.is_some() {
        if a.amdgpu_loaded.is_none() {
            if let Some(mods) = text::read(ctx, "/proc/modules", log) {
                let loaded = mods
                    .lines()
                    .any(|l| l.split_whitespace().next() == Some("amdgpu"));
                a.amdgpu_loaded = Some(Fact::new(loaded, "/proc/modules"));
            }
        }
        if !kfd {
            a.kfd_present = Some(Fact::new(false, "/dev/kfd"));
        }
    }
    if kfd {
        a.gfx_targets = topology_targets(ctx, log);
        if a.gfx_targets.is_empty() {
            a.gfx_targets = enumerator_targets(ctx, log);
        }
    }
    a
}

fn rocm_version(ctx: &Ctx, log: &mut Log) -> Option<Fact<String>> {
    let path = "/opt/rocm/.info/version";
    if let Some(v) = text::read_trimmed(ctx, path, log) {
        return Some(Fact::new(v, path));
    }
    // Side-by-side installs without the /opt/rocm link: the newest.
    let entries = ctx.sys.read_dir(Path::new("/opt")).ok()?;
    let mut found: Vec<(String, String)> = entries
        .iter()
        .filter(|e| e.name.starts_with("rocm-"))
        .filter_map(|e| {
            let p = format!("{}/.info/version", e.path.display());
            text::read_trimmed(ctx, &p, log).map(|v| (v, p))
        })
        .collect();
    found.sort_by(|a, b| crate::kb::cmp_versions(&a.0, &b.0));
    found.pop().map(|(v, p)| Fact::new(v, p))
}

fn topology_targets(ctx: &Ctx, log: &mut Log) -> Vec<Fact<String>> {
    let Ok(nodes) = ctx.sys.read_dir(Path::new(TOPOLOGY)) else {
        return Vec::new();
    };
    let mut out: Vec<Fact<String>> = Vec::new();
    for n in nodes {
        let path = format!("{}/properties", n.path.display());
        let Some(props) = text::read(ctx, &path, log) else {
            continue;
        };
        if let Some(gfx) = gfx_from_properties(&props) {
            if !out.iter().any(|f| f.value == gfx) {
                out.push(Fact::new(gfx, path));
            }
        }
    }
    out
}

/// `gfx_target_version 90010` in a KFD node's properties → `gfx90a`
/// (major·10000 + minor·100 + stepping; the stepping prints in hex). CPU
/// nodes say 0.
pub fn gfx_from_properties(props: &str) -> Option<String> {
    let v: u32 = props.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next()? == "gfx_target_version")
            .then(|| it.next()?.parse().ok())
            .flatten()
    })?;
    if v == 0 {
        return None;
    }
    let (major, minor, step) = (v / 10000, (v / 100) % 100, v % 100);
    Some(format!("gfx{major}{minor}{step:x}"))
}

fn enumerator_targets(ctx: &Ctx, log: &mut Log) -> Vec<Fact<String>> {
    let program = find_program(ctx, "rocm_agent_enumerator").or_else(|| {
        let p = Path::new("/opt/rocm/bin/rocm_agent_enumerator");
        ctx.sys.exists(p).then(|| p.to_path_buf())
    });
    let Some(program) = program else {
        return Vec::new();
    };
    if !ctx.may_run_code() {
        log.not_run.push("rocm_agent_enumerator".into());
        return Vec::new();
    }
    let program = program.display().to_string();
    match ctx.sys.run(&program, &[], ctx.opts.timeouts.command) {
        CommandOutcome::Finished {
            code: Some(0),
            stdout,
            ..
        } => {
            let mut out: Vec<Fact<String>> = Vec::new();
            for t in parse_agent_enumerator(&stdout) {
                if !out.iter().any(|f| f.value == t) {
                    out.push(Fact::new(t, "rocm_agent_enumerator"));
                }
            }
            out
        }
        CommandOutcome::NotFound => Vec::new(),
        other => {
            log.note("rocm_agent_enumerator", other.describe());
            Vec::new()
        }
    }
}

/// One target per line; `gfx000` is the CPU agent.
pub fn parse_agent_enumerator(out: &str) -> Vec<String> {
    out.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("gfx") && *l != "gfx000")
        .filter(|l| l[3..].bytes().all(|b| b.is_ascii_alphanumeric()))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx_targets_from_topology() {
        assert_eq!(
            gfx_from_properties("cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\n")
                .as_deref(),
            Some("gfx1100")
        );
        assert_eq!(
            gfx_from_properties("gfx_target_version 90010\n").as_deref(),
            Some("gfx90a")
        );
        assert_eq!(
            gfx_from_properties("gfx_target_version 90402\n").as_deref(),
            Some("gfx942")
        );
        assert_eq!(
            gfx_from_properties("cpu_cores_count 16\ngfx_target_version 0\n"),
            None
        );
        assert_eq!(gfx_from_properties("simd_count 0\n"), None);
    }

    #[test]
    fn agent_enumerator() {
        assert_eq!(
            parse_agent_enumerator("gfx000\ngfx90a\ngfx90a\n"),
            vec!["gfx90a", "gfx90a"]
        );
        assert!(parse_agent_enumerator("gfx000\n").is_empty());
        assert!(parse_agent_enumerator("error: no\n").is_empty());
    }
}
