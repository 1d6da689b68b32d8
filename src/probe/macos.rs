//! macOS: the OS version (`SystemVersion.plist`, else `sw_vers`), the CPU
//! (`sysctl`), the GPU (`system_profiler SPDisplaysDataType -json`), Rosetta,
//! and the Python environments with the architecture each interpreter runs as.
//! Facts only: which of them break MPS or MLX is for the rules.

pub mod parse;

use std::path::{Path, PathBuf};

use super::{python, Ctx, Log, ProbeOptions};
use crate::inventory::{Fact, GpuVendor, Inventory, OsKind, PciDevice, PythonEnv};

const SYSTEM_VERSION: &str = "/System/Library/CoreServices/SystemVersion.plist";
const SYSTEM_PROFILER: &str = "/usr/sbin/system_profiler";
const SYSCTL: &str = "/usr/sbin/sysctl";
const SW_VERS: &str = "/usr/bin/sw_vers";
/// Where Rosetta 2's runtime lies once installed.
const ROSETTA: &[&str] = &[
    "/Library/Apple/usr/share/rosetta/rosetta",
    "/usr/libexec/rosetta/oahd",
];
const SYSCTL_NAMES: &[&str] = &[
    "hw.optional.arm64",
    "machdep.cpu.brand_string",
    "hw.memsize",
];

/// Is the probed system macOS? Live: the OS this binary was built for; under
/// a root: the tree holds macOS's version file.
pub(crate) fn detect(ctx: &Ctx) -> bool {
    if ctx.live {
        cfg!(target_os = "macos")
    } else {
        ctx.sys.exists(Path::new(SYSTEM_VERSION))
    }
}

pub(crate) fn probe(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    inv.os.kind = Some(Fact::new(OsKind::Macos, SYSTEM_VERSION));
    os_version(ctx, inv, log);
    cpu(ctx, inv, log);
    gpu(ctx, inv, log);
    let found: Vec<&str> = ROSETTA
        .iter()
        .copied()
        .filter(|p| ctx.sys.exists(Path::new(p)))
        .collect();
    inv.apple.rosetta_installed = Some(match found.first() {
        Some(p) => Fact::new(true, *p),
        None => Fact::new(false, ROSETTA.join(", ")),
    });
    inv.env = super::env::probe(ctx);
    let (mut envs, notes) = python::discover(ctx.sys, &with_mac_prefixes(ctx, ctx.opts));
    log.notes.extend(notes);
    for env in &mut envs {
        python_arch(ctx, env);
    }
    inv.python = envs;
}

fn os_version(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let (pairs, source, name_key, build_key) = match ctx.sys.read_text(Path::new(SYSTEM_VERSION)) {
        Ok(text) => (
            parse::plist_strings(&text),
            SYSTEM_VERSION.to_string(),
            "ProductName",
            "ProductBuildVersion",
        ),
        Err(e) => {
            log.note(SYSTEM_VERSION, e.to_string());
            match run(ctx, SW_VERS, &[], log) {
                Some(out) => (
                    parse::colon_pairs(&out),
                    "sw_vers".to_string(),
                    "ProductName",
                    "BuildVersion",
                ),
                None => return,
            }
        }
    };
    let Some(version) = pairs.get("ProductVersion") else {
        log.note(&source, "no ProductVersion");
        return;
    };
    let name = pairs.get(name_key).map_or("macOS", String::as_str);
    inv.os.id = Some(Fact::new("macos".to_string(), source.clone()));
    inv.os.version_id = Some(Fact::new(version.clone(), source.clone()));
    let pretty = match pairs.get(build_key) {
        Some(b) => format!("{name} {version} ({b})"),
        None => format!("{name} {version}"),
    };
    inv.os.pretty_name = Some(Fact::new(pretty, source));
}

fn cpu(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let Some(out) = run(ctx, SYSCTL, SYSCTL_NAMES, log) else {
        return;
    };
    let src = format!("sysctl {}", SYSCTL_NAMES.join(" "));
    let m = parse::colon_pairs(&out);
    // Intel Macs have no hw.optional.arm64: sysctl names it as unknown on stderr.
    let arm = m.get("hw.optional.arm64").is_some_and(|v| v == "1");
    inv.apple.apple_silicon = Some(Fact::new(arm, src.clone()));
    inv.os.arch = Some(Fact::new(
        if arm { "arm64" } else { "x86_64" }.to_string(),
        src.clone(),
    ));
    if let Some(b) = m.get("machdep.cpu.brand_string") {
        inv.apple.cpu = Some(Fact::new(b.clone(), src.clone()));
    }
    if arm {
        if let Some(bytes) = m.get("hw.memsize").and_then(|v| v.parse::<u64>().ok()) {
            inv.apple.unified_memory_gib = Some(Fact::new(bytes >> 30, src));
        }
    }
}

fn gpu(ctx: &Ctx, inv: &mut Inventory, log: &mut Log) {
    let args = ["SPDisplaysDataType", "-json"];
    let Some(out) = run(ctx, SYSTEM_PROFILER, &args, log) else {
        return;
    };
    let src = "system_profiler SPDisplaysDataType -json".to_string();
    let list = match parse::displays(&out) {
        Ok(l) => l,
        Err(e) => {
            log.note(&src, e);
            return;
        }
    };
    for d in &list {
        inv.apple
            .graphics
            .push(Fact::new(d.model.clone(), src.clone()));
        if d.is_apple() {
            inv.apple.chip = Some(Fact::new(d.model.clone(), src.clone()));
            inv.apple.gpu_cores = d.cores.map(|c| Fact::new(c, src.clone()));
            inv.apple.metal = d.metal.clone().map(|m| Fact::new(m, src.clone()));
        } else {
            // PCI GPUs of Intel Macs: listed so the tier names what the Mac has.
            let vendor = match d.vendor.as_deref().map(str::to_ascii_lowercase) {
                Some(v) if v.contains("intel") => GpuVendor::Intel,
                Some(v) if v.contains("amd") || v.contains("ati") => GpuVendor::Amd,
                Some(v) if v.contains("nvidia") => GpuVendor::Nvidia,
                _ => GpuVendor::Other,
            };
            inv.pci.push(PciDevice {
                vendor,
                device_id: d.device_id.clone().unwrap_or_default(),
                name: Some(d.model.clone()),
                source: src.clone(),
                ..Default::default()
            });
            if inv.apple.metal.is_none() {
                inv.apple.metal = d.metal.clone().map(|m| Fact::new(m, src.clone()));
            }
        }
    }
}

/// Run a macOS program, or say it was not run (under a root without permission).
fn run(ctx: &Ctx, program: &str, args: &[&str], log: &mut Log) -> Option<String> {
    if !ctx.may_run_code() {
        if ctx.sys.exists(Path::new(program)) {
            log.not_run.push(program.to_string());
        }
        return None;
    }
    let outcome = ctx.sys.run(program, args, ctx.opts.timeouts.command);
    match &outcome {
        crate::system::CommandOutcome::Finished { stdout, code, .. }
            // sysctl exits 1 when one name is unknown (hw.optional.arm64 on Intel) yet prints the rest.
            if code == &Some(0) || (program == SYSCTL && !stdout.trim().is_empty()) =>
        {
            Some(stdout.clone())
        }
        _ => {
            log.note(program, outcome.describe());
            None
        }
    }
}

/// The default discovery plus the places macOS installers put Pythons:
/// python.org framework builds and Homebrew's prefixes.
fn with_mac_prefixes(ctx: &Ctx, opts: &ProbeOptions) -> ProbeOptions {
    let mut o = opts.clone();
    // Only prefixes that hold a site-packages: an empty one would be a note, not an environment.
    let has_site = |prefix: &Path| {
        let lib = prefix.join("lib");
        ctx.sys.read_dir_names(&lib).is_ok_and(|names| {
            names.iter().any(|n| {
                n.starts_with("python3.") && ctx.sys.is_dir(&lib.join(n).join("site-packages"))
            })
        })
    };
    let fw = Path::new("/Library/Frameworks/Python.framework/Versions");
    if let Ok(entries) = ctx.sys.read_dir(fw) {
        for e in entries.into_iter().take(64) {
            if e.is_dir && !e.is_symlink && e.name != "Current" && has_site(&e.path) {
                o.python.push(e.path);
            }
        }
    }
    for brew in ["/opt/homebrew", "/usr/local"] {
        if has_site(Path::new(brew)) {
            o.python.push(PathBuf::from(brew));
        }
    }
    o
}

/// The interpreter's architectures from its Mach-O header, else from the
/// platform tag of the torch (or any ML) wheel it installed; and torch's tag.
fn python_arch(ctx: &Ctx, env: &mut PythonEnv) {
    let torch_tag = env
        .package("torch")
        .and_then(|p| super::wheels::tag(ctx.sys, &p.source));
    if let (Some(t), Some(tag)) = (env.torch.as_mut(), &torch_tag) {
        t.wheel_tag = Some(tag.clone());
    }
    if let Some(interp) = env.interpreter.clone() {
        let real = python::real_path(ctx.sys, Path::new(&interp));
        if let Some(real) = real {
            if let Ok(head) = ctx.sys.read_range(&real, 0, 4096) {
                if let Some(archs) = parse::macho_archs(&head) {
                    env.arch = Some(Fact::new(archs.join(" "), real.display().to_string()));
                    return;
                }
            }
        }
    }
    let tagged = torch_tag.into_iter().chain(
        env.packages
            .iter()
            .filter_map(|p| super::wheels::tag(ctx.sys, &p.source)),
    );
    for tag in tagged {
        if let Some(a) = parse::wheel_tag_arch(&tag.value) {
            env.arch = Some(
                Fact::new(a.to_string(), tag.source.clone())
                    .with_note(format!("from the wheel tag {}", tag.value)),
            );
            return;
        }
    }
}
