//! What package managers should assume about this machine: conda's virtual
//! packages (with the `CONDA_OVERRIDE_*` lines that reproduce them on
//! another machine, a CI runner or a login node) and uv's torch backend.
//!
//! Sources: conda's "Managing virtual packages" page (docs.conda.io, user
//! guide) for `__cuda`, `__glibc`, `__linux`, `__archspec` and their
//! `CONDA_OVERRIDE_*` variables; CEP 46 (conda.org/learn/ceps/cep-0046)
//! for `__cuda_arch`: the lowest compute capability of all devices as
//! `{major}.{minor}` without `a`/`f`, build string `0`, overridden by
//! `CONDA_OVERRIDE_CUDA_ARCH`.

use std::fmt::Write as _;

use crate::fleet::node::NodeFacts;
use crate::inventory::Inventory;
use crate::kb::{Kb, Semantic};
use crate::plan::hosts::HostSpec;
use crate::plan::resolver::{resolve, Components, PlanRequest, StackKind};

/// `6.8.0-45-generic` → `6.8.0`: the dotted numeric head conda reads.
fn kernel_version(release: &str) -> Option<String> {
    let head: Vec<&str> = release
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?
        .split('.')
        .filter(|p| !p.is_empty())
        .take(4)
        .collect();
    (head.len() >= 2).then(|| head.join("."))
}

fn glibc_version(raw: &str) -> Option<String> {
    let v = raw.trim().trim_start_matches("glibc").trim();
    let v: String = v
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    v.contains('.').then_some(v)
}

/// The conda view: one `name=version=build` line per virtual package, then
/// the override lines. A package this machine does not offer is left out.
pub fn conda(inv: &Inventory, kb: &Kb) -> String {
    let facts = NodeFacts::of(inv, kb);
    let mut pkgs: Vec<(&str, String, String, &str)> = Vec::new();
    if let Some(c) = &facts.cuda_max {
        pkgs.push(("__cuda", c.value.to_string(), "0".into(), "CUDA"));
    }
    let linux = inv
        .os
        .kind
        .as_ref()
        .map_or(true, |k| k.value == crate::inventory::OsKind::Linux);
    if linux {
        if let Some(g) = inv.os.glibc.as_ref().and_then(|g| glibc_version(&g.value)) {
            pkgs.push(("__glibc", g, "0".into(), "GLIBC"));
        }
        if let Some(k) = inv
            .os
            .kernel
            .as_ref()
            .and_then(|k| kernel_version(&k.value))
        {
            pkgs.push(("__linux", k, "0".into(), "LINUX"));
        }
    }
    // Only the CPU family is known; conda then reports the generic microarchitecture.
    if let Some(a) = &inv.os.arch {
        let family = match a.value.as_str() {
            "arm64" => "aarch64".to_string(),
            other => other.to_string(),
        };
        pkgs.push(("__archspec", "1".into(), family, "ARCHSPEC"));
    }
    if facts.blind.is_none() {
        if let Some(cc) = facts.cc_min {
            pkgs.push((
                "__cuda_arch",
                cc.plain().to_string(),
                "0".into(),
                "CUDA_ARCH",
            ));
        }
    }
    let mut s = String::from("# conda virtual packages of this machine (name=version=build)\n");
    if let Some(b) = &facts.blind {
        let _ = writeln!(s, "# __cuda_arch left out: {b}");
    }
    for (name, version, build, _) in &pkgs {
        let _ = writeln!(s, "{name}={version}={build}");
    }
    s.push_str("# to solve for this machine elsewhere:\n");
    for (_, version, build, var) in &pkgs {
        // CONDA_OVERRIDE_ARCHSPEC sets the build string (the microarchitecture).
        let value = if *var == "ARCHSPEC" { build } else { version };
        let _ = writeln!(s, "export CONDA_OVERRIDE_{var}={value}");
    }
    s
}

/// The uv view: `UV_TORCH_BACKEND` for the newest torch build that this
/// driver runs and that carries kernels for every GPU, as the pin resolver
/// chooses it from the torch release and arch-list tables.
pub fn uv_env(inv: &Inventory, kb: &Kb) -> (String, bool) {
    let name = inv
        .os
        .hostname
        .as_ref()
        .map(|h| h.value.clone())
        .unwrap_or_else(|| "this-host".into());
    let req = PlanRequest {
        hosts: vec![HostSpec::from_inventory(inv, &name, "this host", kb)],
        semantic: Semantic::Toolkit,
        os: None,
        python: None,
        with: Components::parse("torch").expect("torch is a component"),
        devel: false,
        cudnn_image: false,
    };
    let plan = resolve(kb, &req);
    let mut s = String::new();
    let backend = plan.stacks.first().and_then(|st| {
        let torch = st.torch()?.version.clone()?;
        let local = torch.split_once('+').map(|(_, l)| l.to_string());
        let value = match (st.kind, local) {
            (StackKind::Cpu | StackKind::Mps, _) => "cpu".to_string(),
            (_, Some(l)) => l,
            (_, None) => return None,
        };
        let mut fits: Vec<String> = st
            .gpus
            .iter()
            .map(|g| {
                format!(
                    "{} {}",
                    g.compute_capability.as_deref().unwrap_or("?"),
                    g.kernel
                )
            })
            .collect();
        fits.sort();
        fits.dedup();
        let _ = writeln!(
            s,
            "# torch {torch}{}{}",
            if fits.is_empty() {
                ""
            } else {
                ": kernels for "
            },
            fits.join(", ")
        );
        Some(value)
    });
    match backend {
        Some(b) => {
            let _ = writeln!(s, "export UV_TORCH_BACKEND={b}");
            (s, true)
        }
        None => {
            s.push_str("# no torch build runs on this machine:\n");
            for u in &plan.unplaced {
                for p in &u.problems {
                    let _ = writeln!(s, "#   {p}");
                }
            }
            (s, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Gpu};

    fn host(driver: &str, ccs: &[&str]) -> Inventory {
        let mut inv = Inventory::new("t");
        inv.os.kind = Some(Fact::new(crate::inventory::OsKind::Linux, "t"));
        inv.os.kernel = Some(Fact::new("6.8.0-45-generic".into(), "t"));
        inv.os.glibc = Some(Fact::new("2.35".into(), "t"));
        inv.os.arch = Some(Fact::new("x86_64".into(), "t"));
        inv.nvidia.driver_version = Some(Fact::new(driver.parse().unwrap(), "NVML"));
        for (i, cc) in ccs.iter().enumerate() {
            inv.gpus.push(Gpu {
                index: i as u32,
                compute_capability: Some(Fact::new(cc.parse().unwrap(), "NVML")),
                ..Default::default()
            });
        }
        inv
    }

    #[test]
    fn conda_lists_virtual_packages_and_overrides() {
        let c = conda(&host("550.54.14", &["9.0", "8.0"]), Kb::embedded());
        assert!(c.contains("\n__cuda=12.4=0\n"), "{c}");
        assert!(c.contains("\n__glibc=2.35=0\n"), "{c}");
        assert!(c.contains("\n__linux=6.8.0=0\n"), "{c}");
        assert!(c.contains("\n__archspec=1=x86_64\n"), "{c}");
        assert!(c.contains("\n__cuda_arch=8.0=0\n"), "{c}");
        assert!(c.contains("export CONDA_OVERRIDE_CUDA=12.4\n"), "{c}");
        assert!(c.contains("export CONDA_OVERRIDE_ARCHSPEC=x86_64\n"), "{c}");
        assert!(c.contains("export CONDA_OVERRIDE_CUDA_ARCH=8.0\n"), "{c}");
        let mut none = host("550.54.14", &[]);
        none.nvidia.driver_version = None;
        let c = conda(&none, Kb::embedded());
        assert!(!c.contains("__cuda"), "{c}");
    }

    #[test]
    fn kernel_and_glibc_spellings() {
        assert_eq!(kernel_version("6.8.0-45-generic").as_deref(), Some("6.8.0"));
        assert_eq!(
            kernel_version("5.15.153.1-microsoft-standard-WSL2").as_deref(),
            Some("5.15.153.1")
        );
        assert_eq!(kernel_version("garbage"), None);
        assert_eq!(glibc_version("glibc 2.39").as_deref(), Some("2.39"));
    }

    #[test]
    fn uv_backend_fits_the_gpus_not_only_the_driver() {
        let kb = Kb::embedded();
        // A new driver with a Blackwell GPU needs a build that has sm_120 kernels.
        let (new, ok) = uv_env(&host("570.124.06", &["12.0"]), kb);
        assert!(ok, "{new}");
        let b = new.lines().last().unwrap();
        assert!(b.starts_with("export UV_TORCH_BACKEND=cu12"), "{new}");
        let v: u32 = b
            .trim_start_matches("export UV_TORCH_BACKEND=cu")
            .parse()
            .unwrap();
        assert!(v >= 128, "{new}");
        // The same driver with a Pascal GPU next to it: the build must also carry sm_61.
        let (mixed, _) = uv_env(&host("570.124.06", &["12.0", "6.1"]), kb);
        assert_ne!(mixed, new, "{mixed}");
        let (cpu, ok) = uv_env(&Inventory::new("t"), kb);
        assert!(
            ok && cpu.ends_with("export UV_TORCH_BACKEND=cpu\n"),
            "{cpu}"
        );
    }
}
