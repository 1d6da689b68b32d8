//! `explain` as text: the findings (the same rendering as every command),
//! the facts read from the input with their line numbers, then what else to run.

use crate::inventory::Inventory;
use crate::report::Report;

use super::findings;

/// The text report: findings (the same rendering as `check`), the facts read
/// from the input with their line numbers, then what else to run.
pub fn text(r: &Report, verbose: bool) -> String {
    let empty = Inventory::new("explain");
    let inv = r.inventory.as_ref().unwrap_or(&empty);
    let mut s = findings::findings_text(r, verbose);
    s.push_str(&findings::summary_line(r));
    s.push('\n');
    let facts = fact_lines(inv);
    if facts.is_empty() {
        s.push_str("Nothing gpucompat knows how to read was found in the input.\n");
    } else {
        s.push_str("Read from the input:\n");
        for f in &facts {
            s.push_str("  ");
            s.push_str(f);
            s.push('\n');
        }
    }
    if verbose || r.findings.is_empty() {
        for n in &inv.notes {
            s.push_str(&format!("  note: {}: {}\n", n.subject, n.message));
        }
    }
    if !r.to_be_sure.is_empty() {
        s.push_str("\nTo be sure, also run:\n");
        for t in &r.to_be_sure {
            s.push_str(&format!("  {}\n      ({})\n", t.command, t.reason));
        }
    }
    s
}

fn on_off(v: bool) -> &'static str {
    if v {
        "on"
    } else {
        "off"
    }
}

/// The facts that were read, each with its source, one per line.
fn fact_lines(inv: &Inventory) -> Vec<String> {
    let mut v = Vec::new();
    let mut f = |what: &str, value: String, src: &str| v.push(format!("{what}: {value} ({src})"));
    let n = &inv.nvidia;
    if let Some(x) = &n.driver_version {
        f("driver", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.kernel_module {
        f("kernel module", x.value.to_string(), &x.source);
    }
    for l in &n.user_libraries {
        f(&l.name, l.version.value.to_string(), &l.version.source);
    }
    if let Some(x) = &n.cuda_max {
        f("driver's CUDA", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.module_flavor {
        f(
            "kernel module flavor",
            format!("{:?}", x.value).to_lowercase(),
            &x.source,
        );
    }
    if let Some(x) = &n.module_loaded {
        f("nvidia module loaded", x.value.to_string(), &x.source);
    }
    if let Some(x) = &n.smi_ok {
        f("nvidia-smi answered", x.value.to_string(), &x.source);
    }
    for d in inv.nvidia_pci() {
        let driver = d.driver.as_deref().unwrap_or("none");
        let name = d.name.as_deref().unwrap_or("NVIDIA device");
        f(
            &format!("PCI {}", d.address),
            format!("{name}, driver {driver}"),
            &d.source,
        );
    }
    for g in &inv.gpus {
        if let Some(x) = &g.name {
            f(&format!("GPU {}", g.index), x.value.clone(), &x.source);
        }
        if let Some(x) = &g.compute_capability {
            f(
                &format!("GPU {} compute capability", g.index),
                x.value.to_string(),
                &x.source,
            );
        }
        if let Some(x) = &g.mig {
            let v = match (x.value.enabled, x.value.instances) {
                (false, _) => "disabled".to_string(),
                (true, Some(n)) => format!("enabled, {n} instances"),
                (true, None) => "enabled".to_string(),
            };
            f(&format!("GPU {} MIG", g.index), v, &x.source);
        }
        if let Some(x) = &g.driver_model {
            f(
                &format!("GPU {} driver model", g.index),
                format!("{:?}", x.value).to_uppercase(),
                &x.source,
            );
        }
    }
    for (what, libs) in [
        ("cuDNN", &inv.libraries.cudnn),
        ("NCCL", &inv.libraries.nccl),
        ("TensorRT", &inv.libraries.tensorrt),
    ] {
        if let Some(l) = libs.first() {
            let more = match libs.len() {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            f(
                what,
                format!("{} {}{more}", l.version.value, l.path),
                &l.version.source,
            );
        }
    }
    if let Some(x) = &inv.amd.amdgpu_loaded {
        f(
            "amdgpu (ROCk) module loaded",
            x.value.to_string(),
            &x.source,
        );
    }
    if let Some(x) = &inv.amd.rocm_version {
        f("ROCm", x.value.clone(), &x.source);
    }
    for x in &inv.amd.gfx_targets {
        f("AMD GPU target", x.value.clone(), &x.source);
    }
    if let Some(x) = &inv.apple.chip {
        f("Apple chip", x.value.clone(), &x.source);
    }
    let fab = &inv.fabric;
    if let Some(x) = &fab.fabric_manager_running {
        f("fabric manager running", x.value.to_string(), &x.source);
    }
    if let Some(x) = &fab.fabric_manager_version {
        f("fabric manager", x.value.to_string(), &x.source);
    }
    for t in &inv.toolkits {
        f(
            &format!("CUDA toolkit ({})", t.path),
            t.version.value.to_string(),
            &t.version.source,
        );
    }
    let os = &inv.os;
    if let Some(x) = &os.pretty_name {
        f("OS", x.value.clone(), &x.source);
    } else if let Some(x) = &os.kind {
        f("OS", format!("{:?}", x.value).to_lowercase(), &x.source);
    }
    if let Some(x) = &os.kernel {
        f("kernel", x.value.clone(), &x.source);
    }
    if let Some(x) = &inv.wsl.is_wsl {
        f("WSL", x.value.to_string(), &x.source);
    }
    if let Some(x) = &inv.container.runtime {
        f("container", x.value.clone(), &x.source);
    }
    if let Some(x) = inv.container.kubernetes.as_ref().filter(|k| k.value) {
        f("Kubernetes", "yes".into(), &x.source);
    }
    for env in &inv.python {
        if let Some(t) = &env.torch {
            if let Some(x) = &t.version {
                f("torch", x.value.clone(), &x.source);
            }
            if let Some(x) = &t.cuda {
                let v = x
                    .value
                    .map_or("none (CPU-only)".to_string(), |c| c.to_string());
                f("torch CUDA build", v, &x.source);
            }
        }
        if let Some(r) = &env.runtime {
            if let Some(x) = &r.cuda_available {
                f("torch.cuda.is_available()", x.value.to_string(), &x.source);
            }
        }
        for p in &env.packages {
            if p.name != "torch" {
                f(&p.name, p.version.clone(), &p.source);
            }
        }
    }
    for (k, x) in &inv.env {
        f(k, format!("{:?}", x.value), &x.source);
    }
    if let Some(x) = &os.secure_boot {
        f("Secure Boot", on_off(x.value).into(), &x.source);
    }
    let st = &inv.setting;
    let flags = [
        ("Jetson", &st.jetson),
        ("NVIDIA vGPU profile", &st.vgpu),
        ("docker run gives GPUs", &st.docker_run_gpus),
        ("CDI spec gives /dev/nvidia-uvm", &st.cdi_spec_uvm),
        ("Ray task without num_gpus", &st.ray_without_gpus),
        ("Slurm job asks for GPUs", &st.slurm_gpus),
        ("Slurm job binds GPUs per task", &st.slurm_gpus_per_task),
        ("MIG enabled", &st.mig_enabled),
        (
            "CUDA_VISIBLE_DEVICES set after torch.cuda",
            &st.visible_devices_set_late,
        ),
        (
            "device numbers differ from nvidia-smi",
            &st.device_order_differs,
        ),
        ("a pod's runtimeClassName named", &st.runtime_class_named),
        ("began after an update", &st.after_update),
    ];
    for (what, x) in flags {
        if let Some(x) = x {
            f(what, x.value.to_string(), &x.source);
        }
    }
    let texts = [
        ("Linux driver package", &st.linux_driver_package),
        ("docker run image's CUDA", &st.run_image_cuda),
        ("GPUs chosen by index", &st.renumbered_devices),
        ("GPU asked for by index", &st.device_index),
        ("extension built from source", &st.extension_build),
        ("Kubernetes distribution", &st.k3s),
        ("application", &st.app),
        ("library on disk", &st.library_on_disk),
        ("assigned, not exported", &st.unexported_assignment),
    ];
    for (what, x) in texts {
        if let Some(x) = x {
            f(what, x.value.clone(), &x.source);
        }
    }
    if let Some(x) = &st.l4t_host {
        f("host L4T release", format!("R{}", x.value), &x.source);
    }
    if let (Some(x), Some(r)) = (&st.l4t_image, &st.l4t_image_release) {
        f(
            "image's L4T release",
            format!("R{} ({})", r.value, x.value),
            &x.source,
        );
    }
    for e in &inv.errors {
        let mut text: String = e.text.chars().take(120).collect();
        if text.len() < e.text.len() {
            text.push('…');
        }
        let what = if e.kind.is_question() {
            "said"
        } else {
            "error"
        };
        f(&format!("{what} ({:?})", e.kind), text, &e.source);
    }
    v
}
