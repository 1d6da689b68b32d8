//! The context stage, between the parsers and the rules: what platform the
//! paste comes from and how the failing program was started, read from the
//! clues around the errors (an `Apple M2` in a hardware dump, a `C:\` path,
//! a Radeon card's name, a pasted `docker run` with no `--gpus`, a Ray task
//! with no `num_gpus`, a Slurm job with no GPU request).
//!
//! The same error means different things in different settings ("Torch not
//! compiled with CUDA enabled" on a Mac is no wheel problem), so the rules
//! need these facts to classify it. A clue fills only what the parsers left
//! unknown, and every fact it fills says it came from a clue.

use super::{put, Builder, Doc};
use crate::inventory::{Fact, GpuVendor, OsKind};

regex_fn!(
    clue_re,
    r"(?ix-u)
    (?P<mac>\bapple\s+m[1-5]\b|\bapple\s+silicon\b|@[a-z0-9-]*-mbp\b|\bm[1-5](?:\s+(?:pro|max|ultra))?\s+(?:macs?|macbooks?|chips?)\b|\bon\s+(?:an?\s+|my\s+)?mac\b|\bplatform:\s*m[1-5]\b|\bm[1-5]\s+(?:pro|max|ultra)\b|\bmacbook|\bmac\s?mini\b|\bmac\s?studio\b|\bimac\b|\bmacos\b|\bmac\s?os\s?x\b|\bosx-arm64\b|\bosx\s?1[0-5](?:\.[0-9]+)?\b|\bmacosx_[0-9]{2}_[0-9]+_(?:arm64|universal2)\b|\bdarwin\b|[\s\x22'(](?-i:/Users/)[a-z0-9._-]+/|/opt/homebrew/|\bchipset\s+model:\s*apple|\bmetal\s+support:|\bmps\s+backend\b)
    |(?P<wsl>microsoft-standard|\bwsl\s?2\b|\bwsl\b|/usr/lib/wsl/|/mnt/[c-e]/|\bwindows\s+subsystem\s+for\s+linux\b|/dev/dxg\b)
    |(?P<win>\b[c-h]:\\[a-z0-9_$ .-]+\\|\bwin_amd64\b|\bwin32\b|\bwindows\s+(?:1[01]|server)\b|^\s*(?:os|platform|operating\s+system)\s*:\s*windows\b|^\s*on\s+windows\b|\bpowershell\b|\.exe\b|\bnvcuda\.dll\b|\bcmd\.exe\b)
    |(?P<amd>\bradeon\b|\bamd\s+(?:rx\s?)?[4-9][0-9]{2,3}(?:\s?xtx?)?\b|\bamd\s*(?:显卡|顯示卡)|\b(?:an?|my|the|with)\s+amd\s+(?:gpu|card|graphics)s?\b|\bryzen\s+[3579]\s+(?:pro\s+)?[0-9]{4}g[e]?\b|\braven\s+ridge\b|/whl/rocm|\brx\s?[4-9][0-9]{2,3}\s?(?:xtx|xt|m|s)?\b|\b[5-9][0-9]{2}0\s?xtx?\b|\bgfx(?:9|10|11|12)[0-9]{1,2}[a-z]?\b|\brocm\b|(?:^|[\s\x22'(=:,])amdgpu\b|\bhip_visible_devices\b|\bhsa_override_gfx_version\b|\binstinct\s+mi|\bmi(?:50|60|100|210|250x?|300x?|325x)\b|\bdirectml\b|\badvanced\s+micro\s+devices\b|\bzluda\b|\bamd\s+(?:gpus?\s+)?support\b|\bsupport\s+(?:for\s+)?amd\s+gpus?\b)
    |(?P<intel>\bintel\(r\)\s+(?:uhd|hd|iris)\b|\bintel\s+(?:uhd|iris|arc)\b|\biris\s+xe\b|^\s*-?\s*\[[+x]\]\s+intel\s*$)
    |(?P<vgpu>\bvirtualization\s+mode\s*:\s*vgpu\b|\bvgpu\s+(?:profiles?|guest|vms?)\b|\bfractional\s+(?:vgpu|gpu|l4|g4)s?\b)
    |(?P<suspend>\bsuspend(?:ed|s|ing)?\s+(?:to\s+ram|and\s+resume|the\s+(?:machine|system|laptop|pc|computer)|during)|\b(?:system|machine|laptop|pc|computer)\s+(?:was\s+|is\s+|goes\s+|went\s+)?(?:suspend(?:s|ed)?|hibernat(?:es|ed)|(?:in)?to\s+(?:sleep|standby))\b|\bhibernat(?:e|ed|ion)\b|\bstandby\b|\bwak(?:e|es|ing)\s+(?:up\s+)?from\s+(?:sleep|suspend|standby)|\bafter\s+(?:a\s+)?(?:suspend|sleep|resume|hibernation)\b|\bsuspend/resume\b)
    |(?P<nix>/nix/store/|\bnix-shell\b|\bnixpkgs\b|\bnixos\b|\bnixgl\b|\bnix\s+(?:profile|develop|run|shell|build|package\s+manager)\b)
    |(?P<colab>\bgoogle\s+colab\b|\bcolab\.research\.google\.com\b|\bcolab\s+(?:notebook|runtime|instance)s?\b|\bin\s+colab\b|\bon\s+colab\b|/dist-packages/google/colab/)
    |(?P<jetson>\bjetson\b|\btegra\b|\bl4t\b|\bjetpack\b|\bnvidia-l4t|\bagx\s+orin\b|\borin\s+nano\b|\bxavier\b)
    |(?P<mig>-mig-[1-7]g\.[0-9]+gb\b|\bmig\s+[1-7]g\.[0-9]+gb\b|\bmig\s+(?:mode\s+)?(?:is\s+)?enabled\b|\benabled\s+mig\s+mode\s+for\s+gpu\b|\bmig-[0-9a-f]{8}-|\bmig\s+(?:a100|a30|h100|h200|h800|a800|b200|gb200)\b|\b(?:a100|a30|h100|h200)\s+(?:with\s+)?mig\b|\bmig\s+(?:instances?|partitions?|slices?|devices?)\b|\bmulti-instance\s+gpu\b|\bpartitioned\s+(?:nvidia\s+)?(?:a100|a30|h100|h200|h800|a800|b200)\b)
    |(?P<linuxdrv>^[\s`]*(?:ii\s+)?(?:libnvidia-compute-[0-9]{3}|nvidia-driver-[0-9]{3}(?:-open|-server)?|nvidia-utils-[0-9]{3})(?::amd64)?\s+(?:install\b|[0-9]{3}\.))
    |(?P<sing>\b(?:singularity|apptainer)\s+(?:shell|exec|run|instance\s+start)\b)
    |(?P<docker>\(container\)\s*[$\x23]|\b(?:nvidia-)?docker\s+run\b|\bpodman\s+run\b|\bdocker\s+compose\b|\bdocker-compose\b|\bdocker\s+exec\b|\broot@[0-9a-f]{12}:|/\.dockerenv\b)
    |(?P<incontainer>\b(?:inside|within|in)\s+(?:the|a|my|this|that|an|their|our|your)\s+(?:docker\s+|podman\s+|singularity\s+|apptainer\s+|lxd\s+|lxc\s+)?container\b|\b(?:inside|within)\s+(?:docker\s+|podman\s+)?containers\b|\b(?:inside|within|in|with|using|via|through)\s+docker\b|\(docker\)|\brootless\s+(?:docker|podman)\b|^\s*container_name\s*:|\bdocker\s+desktop\b|\bnvcr\.io/nvidia/[a-z0-9_.-]+:)
    |(?P<sb>\bsecure\s?boot\s+(?:is\s+|was\s+)?(?:enabled|on|turned\s+on|active)\b|\b(?:enabled|turned\s+on)\s+(?:uefi\s+)?secure\s?boot\b)
    |(?P<sboff>\bsecure\s?boot\s+is\s+(?:already\s+)?(?:disabled|off|turned\s+off|not\s+enabled)\b)
    |(?P<ray>@ray\.remote\b|\bray\.remote\(|\bnum_gpus\s*=)
    |(?P<slurm>\#sbatch\b|\bsbatch\s|\bsrun\s|\bslurm_job_id\b|\bslurmstepd\b|\bsalloc\s)
    |(?P<k3s>\bk3s\b|\brke2\b|/var/lib/rancher/)
    |(?P<dbuild>\bthe\s+command\s+'/bin/sh\s+-c\b|\bfailed\s+to\s+solve:\s+process\s+\x22/bin/sh\s+-c\b)
    |(?P<k8s>\bkubectl\s|\bgpu[-\s]operator\b|\b(?:k8s|nvidia)-device-plugin\b|\bkubernetes\b|\bmicrok8s\b|\bkubelet\b|^\s*kind:\s*pod\b)
    |(?P<nvsw>\b(?:[dh]gx[\s-]?(?:a100|a800|h100|h200|h800|b200|b300)|(?:a100|a800|h100|h200|h800|b200|b300)[\s-]hgx|[dh]gx-2)\b)
    |(?P<app>\bollama\b|\bvllm\b|\bcu(?:ml|df|graph)\b|\brapids(?:ai)?\b)
    |(?P<rtclass>\bruntimeclassname\b)
    |(?P<reserve>\b(?:driver|runtime)\s*:\s*[\x22']?nvidia\b)
    |(?P<notice>\bplease\s+note:\s+device:\s*[0-9]+,\s*cuda\s+capability:|\bcuda\s+lazy\s+loading\s+is\s+not\s+enabled\b)
    |(?P<upd>\bafter\s+(?:an?\s+|the\s+|some\s+)?(?:recent\s+|routine\s+|automatic\s+|latest\s+|nightly\s+)?(?:system\s+|ubuntu\s+|debian\s+|fedora\s+|os\s+|apt\s+|package\s+|software\s+|kernel\s+|security\s+|windows\s+|nvidia\s+)?(?:driver\s+)?(?:updates?|upgrades?)\b|\bafter\s+(?:updating|upgrading)\s+(?:the\s+|my\s+)?(?:system|ubuntu|os|packages|kernel|nvidia|drivers?)\b|\bafter\s+(?:running\s+)?(?:sudo\s+)?apt(?:-get)?\s+(?:full-|dist-)?upgrade\b|\bworked\s+(?:fine\s+|well\s+|perfectly\s+)?(?:yesterday|the\s+day\s+before)\b)
    "
);

regex_fn!(
    driver_in_wsl_re,
    r"(?i)\binstall(?:ed|ing)?\b([^.;]{0,60}?)\bdrivers?\b([^.;]{0,60}?)\b(?:in|inside|within|into)\s+(?:the\s+|my\s+)?wsl2?\b"
);

/// `installed the GPU driver ... inside WSL`: a Linux driver put into WSL,
/// as a report states it (not the Windows driver, not a denial).
fn driver_in_wsl(lower: &str) -> bool {
    driver_in_wsl_re().captures(lower).is_some_and(|m| {
        let start = m.get(0).map_or(0, |g| g.start());
        let before = lower[..start]
            .char_indices()
            .rev()
            .nth(15)
            .map_or(&lower[..start], |(i, _)| &lower[i..start]);
        let between = format!(" {before} {} {}", &m[1], &m[2]);
        !["windows", "not ", "n't", "never", "without", " no "]
            .iter()
            .any(|w| between.contains(w))
    })
}

/// Words that say a line is about an NVIDIA GPU, so an AMD word on it is
/// not the machine's GPU (`RTX 4090 vs RX 7900 XTX`).
/// The sentence around a platform clue says the setup works there ("the
/// same command works under WSL2", "on Windows it runs fine"): that platform
/// is where it does not fail, so it is no clue about the failing one.
fn works_there(lower: &str, start: usize, end: usize) -> bool {
    let from = lower[..start]
        .rfind(['.', ';', '!', '?'])
        .map_or(0, |p| p + 1);
    let to = lower[end..]
        .find(['.', ';', '!', '?'])
        .map_or(lower.len(), |p| end + p);
    let before = &lower[from..start];
    let after = &lower[end..to];
    let said = |s: &str| {
        [
            "works",
            "worked",
            "working",
            "runs fine",
            "ran fine",
            "no problem",
            "without problem",
            "without issue",
        ]
        .iter()
        .any(|w| s.contains(w))
    };
    let negated = |s: &str| {
        [
            "n't",
            "not ",
            "no longer",
            "stopped",
            "fails",
            "failed",
            "never",
        ]
        .iter()
        .any(|w| s.contains(w))
    };
    let sentence = &lower[from..to];
    (said(before) || said(after)) && !negated(sentence)
}

fn nvidia_word(l: &str) -> bool {
    let said = |w: &str| {
        l.match_indices(w).any(|(at, _)| {
            // `no Nvidia GPU`, `non-NVIDIA`, `not an NVIDIA card` deny one.
            let before = l[..at].trim_end();
            ![
                "no",
                "non-",
                "non",
                "not an",
                "not a",
                "without",
                "without an",
                "without any",
            ]
            .iter()
            .any(|n| before.ends_with(n))
        })
    };
    said("nvidia") || said("geforce") || said("rtx") || l.contains("cuda:")
}

/// Clues gathered over every input before any is applied.
#[derive(Debug, Default)]
pub struct Clues {
    mac: Option<String>,
    /// A macOS 10.x release the report names (`OS X Yosemite 10.10.5`).
    mac_release: Option<(String, String)>,
    wsl: Option<String>,
    win: Option<String>,
    amd: Option<(String, String)>,
    /// An Intel GPU the report names (integrated graphics, Arc, a GPU checklist's tick).
    intel: Option<(String, String)>,
    jetson: Option<String>,
    colab: Option<String>,
    nix: Option<String>,
    suspend: Option<String>,
    vgpu: Option<String>,
    /// A `docker build` step's failure (`The command '/bin/sh -c ...'`).
    docker_build: Option<String>,
    docker_run: Option<(bool, String)>,
    docker_other: Option<String>,
    /// A Singularity/Apptainer container started (`singularity exec --nv`):
    /// the runtime's name and whether `--nv` gave it the GPUs (unknown for
    /// a command cut before its image).
    singularity: Option<(String, Option<bool>, String)>,
    in_container: Option<String>,
    ray_remote: Option<String>,
    ray_num_gpus: bool,
    slurm: Option<String>,
    slurm_gpus: bool,
    slurm_per_task: Option<String>,
    mig: Option<String>,
    secure_boot: Option<String>,
    /// The report says Secure Boot is off (now, not as a step taken).
    secure_boot_off: Option<String>,
    linux_driver_pkg: Option<(String, String)>,
    run_image_cuda: Option<(String, String)>,
    named_image_cuda: Option<(String, String)>,
    chosen_devices: Option<(String, String)>,
    /// A GPU asked for by an index other than 0 (`--gpu 1`, `cuda:1`).
    device_index: Option<(String, String)>,
    device0_used: bool,
    cuda_called: bool,
    cvd_set_late: Option<String>,
    device_order: Option<String>,
    ext_build: Option<(String, String)>,
    l4t_host: Option<(u32, String)>,
    k3s: Option<(String, String)>,
    /// Kubernetes named (kubectl, the GPU Operator, the device plugin, a Pod manifest).
    k8s: Option<String>,
    nvswitch_board: Option<(String, String)>,
    runtime_class: Option<String>,
    after_update: Option<String>,
    /// A notice programs print on a working GPU, and where.
    notice: Option<(String, String)>,
    app: Option<(String, String)>,
    l4t_image: Option<(u32, String, String)>,
    /// A DeepSpeed launch that picks its own GPUs, and where.
    deepspeed_picks: Option<(String, String)>,
    /// A CUDA_VISIBLE_DEVICES assignment the paste shows commented out.
    commented_visible: Option<String>,
}

/// A `deepspeed` launch that chooses the GPUs itself (`--num_gpus`,
/// `--include`, `--exclude`, `--num_nodes`): the command. (The launcher's
/// own warning that it ignores CUDA_VISIBLE_DEVICES is an error catalog
/// entry, `deepspeed-ignores-visible-devices`.)
fn deepspeed_picks(t: &str) -> Option<String> {
    let at = t.find("deepspeed ")?;
    // The command itself, after any `VAR=value` prefixes or a prompt.
    let before = &t[..at];
    let prefix_ok = before
        .split_whitespace()
        .all(|w| w.contains('=') || w == "$" || w == "#" || w.ends_with('$') || w == "env");
    if !prefix_ok {
        return None;
    }
    let rest = &t[at..];
    ["--num_gpus", "--include", "--exclude", "--num_nodes"]
        .iter()
        .any(|f| rest.contains(f))
        .then(|| rest.trim().to_string())
}

/// A Markdown checklist item left unticked: `- [ ] Mac`, `* [ ] AMD`.
fn unticked(t: &str) -> bool {
    t.trim_start_matches(|ch: char| ch.is_whitespace() || ch == '-' || ch == '*')
        .starts_with("[ ]")
}

/// Read one cleaned input's clues.
pub fn scan(doc: &Doc, c: &mut Clues) {
    let re = clue_re();
    let mut i = 0;
    while i < doc.lines.len() {
        let line = &doc.lines[i];
        let t = &*line.text;
        i += 1;
        if t.len() >= 3 && line.gate(super::gate::Gate::Devices) {
            devices(t, line.src.as_str(), c);
            if c.commented_visible.is_none()
                && t.trim_start().starts_with('#')
                && t.contains("CUDA_VISIBLE_DEVICES=")
            {
                c.commented_visible = Some(line.src.clone());
            }
        }
        let context = line.gate(super::gate::Gate::Context);
        if c.deepspeed_picks.is_none() && context {
            if let Some(what) = deepspeed_picks(t) {
                c.deepspeed_picks = Some((what, line.src.clone()));
            }
        }
        if i >= 2 && (context || doc.lines[i - 2].gate(super::gate::Gate::Context)) {
            across(&doc.lines[i - 2].text, t, line.src.as_str(), c);
        }
        if (context || t.contains("(release)"))
            && ["l4t", "jetpack", "(release)", "dustynv"]
                .iter()
                .any(|w| super::clean::has_ci(t, w))
        {
            l4t_releases(t, line.src.as_str(), c);
        }
        // An nvidia/cuda image the report names outside a docker run (its
        // Dockerfile's FROM is read with the Dockerfile).
        if c.named_image_cuda.is_none() && t.contains("nvidia/cuda:") && !t.contains("FROM ") {
            if let Some(m) = image_cuda_re().captures(t) {
                c.named_image_cuda = Some((m[1].to_string(), line.src.clone()));
            }
        }
        // An issue template's unticked choice (`- [ ] Linux in WSL`) names
        // nothing about this machine.
        if t.len() < 3 || !context || unticked(t) {
            continue;
        }
        if c.mac_release.is_none() {
            c.mac_release = mac_release(t).map(|v| (v, line.src.clone()));
        }
        if !re.is_match(t) {
            continue;
        }
        let src = line.src.as_str();
        let first = |slot: &mut Option<String>| {
            if slot.is_none() {
                *slot = Some(src.to_string());
            }
        };
        let lower = t.to_ascii_lowercase();
        let mut reserved = false;
        // Every clue on the line: one sentence can name a cluster and Secure Boot.
        for m in re.captures_iter(t) {
            reserved |= m.name("reserve").is_some();
            if let Some(w) = m.name("mac") {
                if !works_there(&lower, w.start(), w.end()) {
                    first(&mut c.mac);
                }
            }
            if let Some(w) = m.name("wsl") {
                if !works_there(&lower, w.start(), w.end()) {
                    first(&mut c.wsl);
                }
            }
            if let Some(w) = m.name("win") {
                if !works_there(&lower, w.start(), w.end()) {
                    first(&mut c.win);
                }
            }
            if let Some(a) = m.name("amd") {
                // collect_env's `ROCM used to build PyTorch: N/A` is about the wheel, not the GPU.
                let key =
                    lower.trim_start_matches(|ch: char| ch.is_whitespace() || "-*`|".contains(ch));
                let template = key.starts_with("rocm used to build")
                    || key.starts_with("hip runtime")
                    || key.starts_with("miopen")
                    || rocm_absent(&lower[a.end()..]);
                // A command's `--rocm` flag (`singularity --nv --rocm`) names no GPU.
                let flag = t[..a.start()].ends_with("--");
                // A variable listed with no value (Ollama's `server config
                // env="map[… HSA_OVERRIDE_GFX_VERSION: …]"`) names no AMD GPU.
                let empty = ["hip_visible_devices", "hsa_override_gfx_version"]
                    .iter()
                    .any(|v| a.as_str().eq_ignore_ascii_case(v))
                    && matches!(
                        &t.as_bytes()[a.end()..],
                        [b':' | b'=', b' ' | b']' | b'"', ..] | [b':' | b'=']
                    );
                // `$HIP_VISIBLE_DEVICES` read by a script, or set beside
                // CUDA_VISIBLE_DEVICES (Slurm exports both on NVIDIA nodes),
                // names no AMD GPU either.
                let visibility = a.as_str().eq_ignore_ascii_case("hip_visible_devices")
                    && (t[..a.start()].ends_with('$') || lower.contains("cuda_visible_devices"));
                if c.amd.is_none()
                    && !nvidia_word(&lower)
                    && !template
                    && !flag
                    && !empty
                    && !visibility
                {
                    let clue = a.as_str().to_ascii_lowercase();
                    // `an AMD card` names no model; a stack's name (ROCm,
                    // DirectML, ZLUDA) names none either.
                    let generic = clue.split_whitespace().count() >= 3 || clue.contains("support");
                    let stack = ["rocm", "/whl/rocm", "directml", "zluda", "amdgpu"]
                        .iter()
                        .any(|w| {
                            clue.trim_start_matches(|ch: char| {
                                !ch.is_ascii_alphanumeric() && ch != '/'
                            }) == *w
                        });
                    let name = if generic {
                        "AMD (no model named)".to_string()
                    } else if stack {
                        format!(
                            "AMD (no model named; the report names {})",
                            a.as_str().trim()
                        )
                    } else {
                        amd_name(t, a.start())
                    };
                    c.amd = Some((name, src.to_string()));
                }
            }
            if let Some(i) = m.name("intel") {
                if c.intel.is_none() && !nvidia_word(&lower) {
                    let name = if i.as_str().contains('[') {
                        "a ticked checklist item".to_string()
                    } else {
                        i.as_str().trim().to_string()
                    };
                    c.intel = Some((name, src.to_string()));
                }
            }
            // Settings a clue says by being there: the first line that says it.
            for (name, slot) in [
                ("jetson", &mut c.jetson),
                ("colab", &mut c.colab),
                ("nix", &mut c.nix),
                ("suspend", &mut c.suspend),
                ("vgpu", &mut c.vgpu),
                ("dbuild", &mut c.docker_build),
                ("mig", &mut c.mig),
                ("sb", &mut c.secure_boot),
                ("sboff", &mut c.secure_boot_off),
                ("slurm", &mut c.slurm),
                ("k8s", &mut c.k8s),
            ] {
                if m.name(name).is_some() {
                    first(slot);
                }
            }
            if c.linux_driver_pkg.is_none() && m.name("wsl").is_some() && driver_in_wsl(&lower) {
                c.linux_driver_pkg = Some((
                    "an NVIDIA Linux driver".to_string(),
                    format!("{src} {}", super::prose::PROSE),
                ));
            }
            if let Some(d) = m.name("linuxdrv") {
                if c.linux_driver_pkg.is_none() {
                    let pkg = d
                        .as_str()
                        .trim_start_matches([' ', '`'])
                        .trim_start_matches("ii")
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .trim_end_matches(":amd64")
                        .to_string();
                    c.linux_driver_pkg = Some((pkg, src.to_string()));
                }
            }
            if m.name("docker").is_some() {
                // A command line, not a message that mentions one ("Use 'nvidia-docker run' to ...").
                let cmd = line.command().unwrap_or(t).trim_start();
                let cmd = cmd.strip_prefix("sudo ").unwrap_or(cmd).trim_start();
                let is_cmd = ["docker ", "nvidia-docker ", "podman "]
                    .iter()
                    .any(|p| cmd.starts_with(p));
                if is_cmd && lower.contains(" run") {
                    // `docker run` continued over lines ending in `\`.
                    let mut cmd = lower.clone();
                    let mut j = i;
                    while cmd.trim_end().ends_with('\\') && j < doc.lines.len() && j < i + 40 {
                        cmd.push(' ');
                        cmd.push_str(&doc.lines[j].text.to_ascii_lowercase());
                        j += 1;
                    }
                    let gpus = gives_gpus(&cmd);
                    if c.run_image_cuda.is_none() {
                        if let Some(m) = image_cuda_re().captures(&cmd) {
                            c.run_image_cuda = Some((m[1].to_string(), src.to_string()));
                        }
                    }
                    match &c.docker_run {
                        Some((true, _)) => {}
                        Some((false, _)) if !gpus => {}
                        _ => c.docker_run = Some((gpus, src.to_string())),
                    }
                } else {
                    first(&mut c.docker_other);
                }
            }
            if let Some(w) = m.name("sing") {
                if c.singularity.is_none() {
                    let name = w.as_str().split_whitespace().next().unwrap_or("");
                    let name = name.to_ascii_lowercase();
                    // Without `--nv` the container has no GPU, if the command
                    // is whole: it goes on to name its image.
                    let rest = &lower[w.end()..];
                    let image = [
                        ".sif",
                        ".simg",
                        "docker://",
                        "library://",
                        "shub://",
                        "oras://",
                        "/",
                    ]
                    .iter()
                    .any(|i| rest.contains(i));
                    let gpus = if lower.contains("--nv") {
                        Some(true)
                    } else {
                        image.then_some(false)
                    };
                    c.singularity = Some((name, gpus, src.to_string()));
                }
            }
            if let Some(w) = m.name("incontainer") {
                // A message's condition ("If you're installing within a container
                // from ...") says nothing about where the report ran.
                let before = &lower[..w.start()];
                let from = super::clean::ceil_boundary(before, before.len().saturating_sub(40));
                let conditional = before[from..].contains("if ");
                if !conditional {
                    first(&mut c.in_container);
                }
            }
            if m.name("ray").is_some() {
                if lower.contains("num_gpus") {
                    c.ray_num_gpus = true;
                } else {
                    first(&mut c.ray_remote);
                }
            }
            if let Some(k) = m.name("k3s") {
                if c.k3s.is_none() {
                    let which = if k.as_str().eq_ignore_ascii_case("k3s") {
                        "k3s"
                    } else {
                        "RKE2"
                    };
                    c.k3s = Some((which.to_string(), src.to_string()));
                }
            }
            if let Some(n) = m.name("nvsw") {
                // An HGX A100 4-GPU board joins its GPUs without NVSwitches.
                let after = lower[n.end()..].trim_start();
                let four = ["4-gpu", "4 gpu", "4gpu"]
                    .iter()
                    .any(|w| after.starts_with(w));
                if c.nvswitch_board.is_none() && !four {
                    c.nvswitch_board = Some((n.as_str().to_string(), src.to_string()));
                }
            }
            if m.name("rtclass").is_some() {
                first(&mut c.runtime_class);
            }
            if m.name("upd").is_some() {
                first(&mut c.after_update);
            }
            if m.name("notice").is_some() && c.notice.is_none() {
                c.notice = Some((t.trim().to_string(), src.to_string()));
            }
            if let Some(a) = m.name("app") {
                // A fork (`the Kepler Ollama fork`) is another program, whose
                // GPU floor the knowledge base does not know.
                if c.app.is_none() && !lower.contains("fork") {
                    let name = a.as_str().to_ascii_lowercase();
                    // cuDF, cuML and cuGraph share RAPIDS' GPU floor.
                    let name = if name == "ollama" || name == "vllm" {
                        name
                    } else {
                        "rapids".to_string()
                    };
                    c.app = Some((name, src.to_string()));
                }
            }
        }
        // A compose file or Kubernetes spec that reserves NVIDIA devices.
        if reserved {
            c.docker_run = Some((true, src.to_string()));
        }
        if c.slurm.is_some()
            && (lower.contains("--gres=gpu")
                || lower.contains("--gres gpu")
                || lower.contains("--gpus")
                || lower.contains("gpus-per-"))
        {
            c.slurm_gpus = true;
            if lower.contains("gpus-per-task") && c.slurm_per_task.is_none() {
                c.slurm_per_task = Some(src.to_string());
            }
        }
    }
}

/// A platform clue a wrap at a space cut in two (`... in MPS` / `backend.`):
/// the end of one line and the start of the next, read as one. Only a match
/// that spans the cut counts; each line alone was read already.
fn across(prev: &str, t: &str, src: &str, c: &mut Clues) {
    const SPAN: usize = 40;
    if prev.len() < 3 || prev.ends_with(char::is_whitespace) {
        return;
    }
    let tail = super::clean::ceil_boundary(prev, prev.len().saturating_sub(SPAN));
    let head = super::clean::floor_boundary(t, SPAN);
    let cut = prev.len() - tail;
    // A clue that spans the cut has a clue word next to it: the large
    // pattern runs only where one is.
    let near = |s: &str| {
        super::gate::scan_line(s, &mut Vec::new()) & super::gate::Gate::Context as u16 != 0
    };
    let edge = super::clean::ceil_boundary(prev, prev.len().saturating_sub(24));
    if !near(&prev[edge..]) && !near(&t[..super::clean::floor_boundary(t, 24)]) {
        return;
    }
    let joint = format!("{} {}", &prev[tail..], t[..head].trim_start());
    for m in clue_re().captures_iter(&joint) {
        for (name, slot) in [
            ("mac", &mut c.mac),
            ("wsl", &mut c.wsl),
            ("win", &mut c.win),
            ("jetson", &mut c.jetson),
            ("mig", &mut c.mig),
        ] {
            if let Some(g) = m.name(name) {
                if g.start() < cut && g.end() > cut + 1 && slot.is_none() {
                    *slot = Some(src.to_string());
                }
            }
        }
    }
}

regex_fn!(image_cuda_re, r"\bnvidia/cuda:([0-9]+\.[0-9]+)");
regex_fn!(
    l4t_host_re,
    r"(?i)\bl4t\s+r?(3[2-9])\.[0-9]|^\s*#\s*r(3[2-9])\s+\(release\)|\bjetpack\s+([4-6])(?:\.[0-9]+)*\b"
);
regex_fn!(
    l4t_image_re,
    r"(?i)\b((?:[a-z0-9_.-]+/)*[a-z0-9_.-]*(?:l4t|jetson|dustynv)[a-z0-9_./-]*:(?:[a-z0-9._]+-)*r(3[2-9])\.[0-9]+(?:\.[0-9]+)?)\b|\b((?:dustynv|nvcr\.io/nvidia)/[a-z0-9_./-]+:(?:[a-z0-9._]+-)*r(3[2-9])\.[0-9]+(?:\.[0-9]+)?)\b"
);

/// The L4T major of a JetPack major (NVIDIA's JetPack archive: JetPack 4.x
/// ships L4T R32.x, 5.x R35.x, 6.x R36.x).
fn jetpack_l4t(jetpack: u32) -> Option<u32> {
    match jetpack {
        4 => Some(32),
        5 => Some(35),
        6 => Some(36),
        _ => None,
    }
}

/// A Jetson line's L4T releases: the host's (`L4T 36.4.0`, `# R36 (release)`,
/// `JetPack 6`) and a container image's tag (`dustynv/l4t-ml:r35.4.1`).
fn l4t_releases(t: &str, src: &str, c: &mut Clues) {
    if c.l4t_image.is_none() {
        if let Some(m) = l4t_image_re().captures(t) {
            let (img, rel) = match (m.get(1), m.get(2)) {
                (Some(i), Some(r)) => (i, r),
                _ => (m.get(3).expect("image"), m.get(4).expect("release")),
            };
            if let Ok(r) = rel.as_str().parse() {
                c.l4t_image = Some((r, img.as_str().to_string(), src.to_string()));
            }
        }
    }
    if c.l4t_host.is_none() {
        // `JetPack 5 images on a JetPack 4 host`: a release named for an
        // image or container is not the host's.
        let for_image = |end: usize| {
            let after = t[end..].to_ascii_lowercase();
            let after = after.trim_start_matches(|ch: char| {
                ch == '.' || ch == '*' || ch == 'x' || ch.is_ascii_digit()
            });
            ["image", "container", "docker"]
                .iter()
                .any(|w| after.trim_start().starts_with(w))
        };
        let host = l4t_host_re()
            .captures_iter(t)
            .find(|m| m.get(0).is_some_and(|g| !for_image(g.end())));
        if let Some(m) = host {
            let major = match (m.get(1).or(m.get(2)), m.get(3)) {
                (Some(r), _) => r.as_str().parse().ok(),
                (None, Some(j)) => j.as_str().parse().ok().and_then(jetpack_l4t),
                _ => None,
            };
            if let Some(r) = major {
                c.l4t_host = Some((r, src.to_string()));
            }
        }
    }
}
regex_fn!(
    chosen_re,
    r"(?i)(?:cuda_visible_devices\s*[=:]\s*|gpu_ids[\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]{0,6})['\x22]?([1-9][0-9]*(?:\s*,\s*[0-9]+)*)\b"
);
// `--gpus N` (docker, mmdetection) and `--devices N` (Lightning) are counts, not indices.
regex_fn!(
    device_index_re,
    r"(?i)(?:^|[\s\x22'`])--?(?:gpu|gpu[-_]ids?|device|device[-_]ids?)(?:\s*=\s*|\s+)['\x22]?([1-9][0-9]?)\b|\bcuda:([1-9][0-9]?)\b|\bset_device\(\s*([1-9][0-9]?)\s*\)"
);
regex_fn!(
    device_words_re,
    r"(?i)visible_devices|gpu_ids|gpu 0|cuda:0|torch\.cuda\."
);
regex_fn!(
    ext_build_re,
    r"(?i)\bsetup\.py\s+(?:install|develop|build_ext|bdist_wheel)\b|\bbuildextension\b|\bcpp_extension\b|\bbuilding\s+wheels?\s+for\s+[a-z0-9_.-]+|\bfailed\s+building\s+wheel\s+for\b|\bbuild(?:ing)?\s+(?:the\s+|a\s+|my\s+|cuda\s+|custom\s+)*(?:cuda\s+)?extensions?\b|\bcan\s+be\s+built\b|--no-build-isolation\b|\b(?:compiled|built)\s+(?:the\s+)?[a-z0-9_.-]+\s+(?:from\s+source|with\s+(?:py)?torch)\b|\bmmcv_with_ops=1\b|\btorch_cuda_arch_list\s*=|\bpip3?\s+install\s+(?:-[a-z]+\s+)*(?:torch[-_](?:scatter|sparse|cluster|spline[-_]conv)|mmcv-full)\b(?:[^-\n]|-[^f\n])*$"
);
regex_fn!(
    ext_name_re,
    r"(?i)\b(torch[-_](?:scatter|sparse|cluster|spline[-_]conv)|pytorch[-_]scatter|flash[-_]attn|xformers|apex|mmcv(?:-full)?|detectron2|pytorch3d|deepspeed|bitsandbytes|vllm|llama[-_]cpp[-_]python|auto[-_]gptq|causal[-_]conv1d|mamba[-_]ssm|tinycudann|nvdiffrast|spconv|natten)\b"
);
regex_fn!(
    device_order_re,
    r"(?i)\b(?:device|gpu|cuda)\s+(?:numbers?|ids?|indexe?s?|indices|numbering|order(?:ing)?)\b[\x00-\x2d\x2f-\x3a\x3c-\x7f]{0,100}\bnvidia-smi\b[\x00-\x2d\x2f-\x3a\x3c-\x7f]{0,80}?\b(?:(?:do(?:es)?\s+)?not\s+(?:match|the\s+same|correspond|line\s+up|refer\s+to\s+the\s+same)|don'?t\s+(?:match|correspond)|not\s+matching|mismatch|differs?|different)\b|\bnvidia-smi\b[\x00-\x2d\x2f-\x3a\x3c-\x7f]{0,40}\b(?:device|gpu)\s+(?:numbers?|ids?|indexe?s?|indices|numbering|order(?:ing)?)\s+(?:(?:do(?:es)?\s+)?not\s+(?:match|correspond)|not\s+matching|mismatch|differs?|different)\b"
);
regex_fn!(
    device0_re,
    r"(?i)\bcuda:0\b|\(gpu 0\)|\bon gpu 0\b|\bgpu 0\b"
);

/// The note on a Secure Boot fact inferred from a module the kernel refused.
pub(super) const REFUSED_MODULE: &str = "the kernel refused an unsigned module";

/// The macOS 10.x release a line names: `OS X Yosemite 10.10.5`, `macOS 10.13.6`.
fn mac_release(t: &str) -> Option<String> {
    if !t.contains("10.") {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    let at = ["os x ", "osx ", "macos ", "mac os x "]
        .iter()
        .filter_map(|w| lower.find(w).map(|p| p + w.len()))
        .min()?;
    // An optional release name between the system and its number.
    let rest = lower[at..].trim_start();
    let rest = match rest.find("10.") {
        Some(p)
            if p <= 14
                && rest[..p]
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || c == ' ') =>
        {
            &rest[p..]
        }
        _ => return None,
    };
    let v: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let v = v.trim_end_matches('.');
    (v.split('.').count() >= 2 && v.split('.').all(|p| !p.is_empty())).then(|| v.to_string())
}

/// What follows a ROCm word in a tool's own report says it is not there:
/// vLLM's collect_env `ROCM Version : Could not collect`, `ROCm: Disabled`.
fn rocm_absent(after: &str) -> bool {
    let v = after.trim_start();
    let v = v.strip_prefix("version").unwrap_or(v);
    // vLLM's platform probe: `ROCm platform is not available because: …`.
    if v.starts_with("platform is") {
        return true;
    }
    let Some(v) = v.trim_start().strip_prefix([':', '=']) else {
        return false;
    };
    let v = v.trim_start();
    [
        "could not collect",
        "n/a",
        "disabled",
        "none",
        "false",
        "not found",
    ]
    .iter()
    .any(|w| v.starts_with(w))
}

/// Compile the patterns most reports reach, ahead of their first use.
pub(super) fn prewarm() {
    clue_re();
    device_order_re();
    ext_build_re();
    device_words_re();
    chosen_re();
}

/// Device-numbering clues: GPUs chosen by an index other than 0, a program
/// that says it uses device 0, and CUDA_VISIBLE_DEVICES set after torch.cuda
/// was first called.
fn devices(t: &str, src: &str, c: &mut Clues) {
    let lower = t.to_ascii_lowercase();
    if c.ext_build.is_none() {
        extension_build(t, &lower, src, c);
    }
    if c.device_order.is_none() && t.contains("nvidia-smi") && device_order_re().is_match(t) {
        c.device_order = Some(src.to_string());
    }
    if c.device_index.is_none()
        && ["--gpu", "-gpu", "--device", "cuda:", "set_device("]
            .iter()
            .any(|w| lower.contains(w))
    {
        if let Some(m) = device_index_re().captures(t) {
            let n = m.iter().skip(1).flatten().next().map_or("", |g| g.as_str());
            c.device_index = Some((n.to_string(), src.to_string()));
        }
    }
    if !device_words_re().is_match(t) {
        return;
    }
    let cvd = lower.contains("cuda_visible_devices") || lower.contains("gpu_ids");
    if cvd && c.chosen_devices.is_none() {
        if let Some(m) = chosen_re().captures(t) {
            c.chosen_devices = Some((m[1].replace(' ', ""), src.to_string()));
        }
    }
    if lower.contains("gpu 0") || lower.contains("cuda:0") {
        c.device0_used |= device0_re().is_match(t);
    }
    let code = !lower.starts_with("cuda_visible_devices:");
    if code && lower.contains("torch.cuda.") && !lower.contains("os.environ") {
        c.cuda_called = true;
    }
    if c.cuda_called
        && c.cvd_set_late.is_none()
        && lower.contains("os.environ[")
        && lower.contains("cuda_visible_devices")
        && lower.contains('=')
        && !lower.contains("getenv")
    {
        c.cvd_set_late = Some(src.to_string());
    }
}

/// A CUDA extension built from source (`setup.py install`, BuildExtension,
/// `Building wheel for X`), with the package when the line names it.
fn extension_build(t: &str, lower: &str, src: &str, c: &mut Clues) {
    let words = [
        "setup.py",
        "buildextension",
        "cpp_extension",
        "wheel",
        "extension",
        "built",
        "build-isolation",
        "compiled",
        "mmcv_with_ops",
        "arch_list",
        "pip",
        "scatter",
        "sparse",
        "spline",
    ];
    if !words.iter().any(|w| lower.contains(w)) {
        return;
    }
    let Some(m) = ext_build_re().find(t) else {
        return;
    };
    let name = ext_name_re()
        .captures(t)
        .map(|n| n[1].to_ascii_lowercase().replace('_', "-"))
        .or_else(|| {
            let w = m.as_str().to_ascii_lowercase();
            w.split("wheel for ")
                .nth(1)
                .map(|n| n.trim_end_matches(['.', ':']).to_string())
                .or_else(|| {
                    // "compiled mmcv from source", "built mish-cuda with pytorch"
                    let rest = w.strip_prefix("compiled ").or(w.strip_prefix("built "))?;
                    let rest = rest.strip_prefix("the ").unwrap_or(rest);
                    rest.split_whitespace().next().map(str::to_string)
                })
        })
        .unwrap_or_else(|| "a CUDA extension (not named)".into());
    c.ext_build = Some((name, src.to_string()));
}

fn gives_gpus(cmd: &str) -> bool {
    cmd.contains("--gpus")
        || cmd.contains("--runtime=nvidia")
        || cmd.contains("--runtime nvidia")
        || cmd.contains("nvidia.com/gpu")
        || cmd.contains("nvidia-docker")
        || cmd.contains("--device=/dev/nvidia")
        || cmd.contains("--device /dev/nvidia")
        || cmd.contains("nvidia_visible_devices=all")
}

/// The AMD device a clue names: the words from the clue to the end of the
/// name (`AMD Radeon RX 6800M`), at most 48 characters.
fn amd_name(t: &str, at: usize) -> String {
    let start = t[..at].rfind("AMD").filter(|&p| at - p <= 8).unwrap_or(at);
    let rest = &t[start..];
    let end = rest
        .find(['(', ',', ';', '|', '"', '\''])
        .unwrap_or(rest.len())
        .min(48);
    rest[..super::clean::floor_boundary(rest, end)]
        .trim()
        .to_string()
}

/// Fill what the parsers left unknown from the clues of every input.
pub fn apply(c: &Clues, b: &mut Builder) {
    let note = "a clue in the paste, not a tool's output";
    let inv = &mut b.inv;
    let notes = &mut b.notes;
    // WSL is Linux under a Windows host: its clues outrank Windows ones,
    // including the host's own nvidia-smi table pasted beside them (its
    // driver-model column says Windows, which the WSL host is).
    if let Some(src) = &c.wsl {
        if inv.wsl.is_wsl.is_none()
            && inv.os.kind.as_ref().map_or(true, |k| {
                k.value == OsKind::Linux
                    || k.note.as_deref() == Some(super::nvidia_smi::DRIVER_MODEL_NOTE)
            })
        {
            inv.wsl.is_wsl = Some(Fact::new(true, src).with_note(note));
        }
    }
    let wsl = inv.wsl.is_wsl.as_ref().is_some_and(|f| f.value);
    if inv.os.kind.is_none() {
        let kind = match (&c.mac, &c.win) {
            (Some(src), None) => Some((OsKind::Macos, src)),
            (None, Some(src)) if !wsl => Some((OsKind::Windows, src)),
            _ => None,
        };
        if let Some((k, src)) = kind {
            put(
                &mut inv.os.kind,
                Fact::new(k, src).with_note(note),
                notes,
                "operating system",
            );
        }
    }
    let macos = inv
        .os
        .kind
        .as_ref()
        .is_some_and(|k| k.value == OsKind::Macos);
    if let (true, None, Some((v, src))) = (macos, &inv.os.version_id, &c.mac_release) {
        inv.os.version_id = Some(Fact::new(v.clone(), src).with_note(note));
    }
    if let (Some((name, src)), false) = (&c.amd, macos) {
        inv.add_named_gpu(
            GpuVendor::Amd,
            name.clone(),
            format!("{src} (named in the paste)"),
        );
    }
    if let Some((name, src)) = &c.intel {
        inv.add_named_gpu(
            GpuVendor::Intel,
            format!("Intel ({name})"),
            format!("{src} (named in the paste)"),
        );
    }
    let s = &mut inv.setting;
    if let Some((v, src)) = &c.run_image_cuda {
        s.run_image_cuda.get_or_insert_with(|| {
            Fact::new(v.clone(), src).with_note("the image of a pasted docker run")
        });
    }
    if let Some((v, src)) = &c.named_image_cuda {
        s.run_image_cuda.get_or_insert_with(|| {
            Fact::new(v.clone(), src).with_note("an nvidia/cuda image the report names")
        });
    }
    if let Some((v, src)) = &c.device_index {
        s.device_index.get_or_insert_with(|| {
            Fact::new(v.clone(), src).with_note("a GPU index on a command line or in code")
        });
    }
    if let (Some((v, src)), true) = (&c.chosen_devices, c.device0_used) {
        s.renumbered_devices.get_or_insert_with(|| {
            Fact::new(v.clone(), src).with_note("GPUs chosen by index, device 0 reported in use")
        });
    }
    if let Some((name, src)) = &c.ext_build {
        s.extension_build.get_or_insert_with(|| {
            Fact::new(name.clone(), src).with_note("an extension build in the report")
        });
    }
    if let Some(src) = &c.device_order {
        s.device_order_differs.get_or_insert_with(|| {
            Fact::new(true, src)
                .with_note("the report says CUDA's device numbers differ from nvidia-smi's")
        });
    }
    if let Some(src) = &c.cvd_set_late {
        s.visible_devices_set_late.get_or_insert_with(|| {
            Fact::new(true, src).with_note("os.environ set after a torch.cuda call")
        });
    }
    if let Some((pkg, src)) = &c.linux_driver_pkg {
        s.linux_driver_package.get_or_insert_with(|| {
            let how = if super::prose::is_prose(src) {
                "the report's own words"
            } else {
                "an installed package list"
            };
            Fact::new(pkg.clone(), src).with_note(how)
        });
    }
    if let Some(src) = &c.secure_boot {
        inv.os.secure_boot.get_or_insert_with(|| {
            Fact::new(true, src).with_note("the report says Secure Boot is on")
        });
    }
    if let Some(src) = &c.secure_boot_off {
        // The reporter's word outranks what a refused module suggested.
        let guessed = inv
            .os
            .secure_boot
            .as_ref()
            .is_some_and(|f| f.note.as_deref() == Some(REFUSED_MODULE));
        if inv.os.secure_boot.is_none() || guessed {
            inv.os.secure_boot =
                Some(Fact::new(false, src).with_note("the report says Secure Boot is off"));
        }
    }
    for (clue, fact) in [
        (&c.jetson, &mut s.jetson),
        (&c.colab, &mut s.colab),
        (&c.nix, &mut s.nix),
        (&c.suspend, &mut s.after_suspend),
        (&c.vgpu, &mut s.vgpu),
        (&c.docker_build, &mut s.docker_build_step),
    ] {
        if let Some(src) = clue {
            fact.get_or_insert_with(|| Fact::new(true, src).with_note(note));
        }
    }
    if let Some((r, src)) = &c.l4t_host {
        s.l4t_host.get_or_insert_with(|| {
            Fact::new(*r, src).with_note("the host's L4T release as the report names it")
        });
    }
    if let Some((r, img, src)) = &c.l4t_image {
        if s.l4t_image.is_none() {
            s.l4t_image =
                Some(Fact::new(img.clone(), src).with_note("a Jetson image named in the report"));
            s.l4t_image_release =
                Some(Fact::new(*r, src).with_note("the L4T release in the image's tag"));
        }
    }
    if let Some((gpus, src)) = &c.docker_run {
        s.docker_run_gpus
            .get_or_insert_with(|| Fact::new(*gpus, src).with_note("a pasted docker run"));
    }
    if let (None, Some((name, gpus, src))) = (&inv.container.runtime, &c.singularity) {
        inv.container.runtime =
            Some(Fact::new(name.clone(), src).with_note("a pasted container command"));
        if let Some(gpus) = gpus {
            s.docker_run_gpus.get_or_insert_with(|| {
                Fact::new(*gpus, src)
                    .with_note("a pasted Singularity/Apptainer command (--nv gives the GPUs)")
            });
        }
    }
    if inv.container.runtime.is_none() {
        let src = c
            .docker_run
            .as_ref()
            .map(|(_, s)| s)
            .or(c.docker_other.as_ref());
        if let Some(src) = src {
            inv.container.runtime =
                Some(Fact::new("docker".to_string(), src).with_note("a pasted docker command"));
        } else if let Some(src) = &c.in_container {
            inv.container.runtime = Some(
                Fact::new("a container (runtime not named)".to_string(), src)
                    .with_note("the report says it ran inside a container"),
            );
        }
    }
    if let Some(src) = &c.ray_remote {
        if !c.ray_num_gpus {
            s.ray_without_gpus.get_or_insert_with(|| {
                Fact::new(true, src).with_note("a Ray task without num_gpus")
            });
        }
    }
    if let Some((which, src)) = &c.k3s {
        s.k3s
            .get_or_insert_with(|| Fact::new(which.clone(), src).with_note("a clue in the paste"));
        inv.container.kubernetes.get_or_insert_with(|| {
            Fact::new(true, src).with_note("the report names a Kubernetes distribution")
        });
    }
    if let Some(src) = &c.k8s {
        inv.container.kubernetes.get_or_insert_with(|| {
            Fact::new(true, src).with_note(
                "the report names Kubernetes (kubectl, the GPU Operator, the device plugin)",
            )
        });
    }
    if let Some((board, src)) = &c.nvswitch_board {
        s.nvswitch_board.get_or_insert_with(|| {
            Fact::new(board.clone(), src).with_note("the report names the system")
        });
    }
    if let Some((app, src)) = &c.app {
        s.app
            .get_or_insert_with(|| Fact::new(app.clone(), src).with_note("the report names it"));
    }
    if let Some((what, src)) = &c.deepspeed_picks {
        s.deepspeed_picks_gpus.get_or_insert_with(|| {
            Fact::new(what.clone(), src)
                .with_note("the deepspeed launcher chooses the GPUs from its own options")
        });
    }
    if let Some(src) = &c.commented_visible {
        s.visible_devices_commented.get_or_insert_with(|| {
            Fact::new(true, src).with_note("a CUDA_VISIBLE_DEVICES assignment, commented out")
        });
    }
    if let Some((text, src)) = &c.notice {
        s.benign_notice.get_or_insert_with(|| {
            Fact::new(text.clone(), src).with_note("a notice the program prints on a working GPU")
        });
    }
    if let Some(src) = &c.after_update {
        s.after_update.get_or_insert_with(|| {
            Fact::new(true, src).with_note("the report says it began after an update")
        });
    }
    if let Some(src) = &c.runtime_class {
        s.runtime_class_named.get_or_insert_with(|| {
            Fact::new(true, src).with_note("the report names a pod's runtimeClassName")
        });
    }
    if let Some(src) = &c.slurm {
        s.slurm_gpus
            .get_or_insert_with(|| Fact::new(c.slurm_gpus, src).with_note("a Slurm job"));
    }
    if let Some(src) = &c.slurm_per_task {
        s.slurm_gpus_per_task.get_or_insert_with(|| {
            Fact::new(true, src).with_note("a Slurm job asking for GPUs per task")
        });
    }
    if let Some(g) = inv
        .gpus
        .iter()
        .find(|g| g.mig.as_ref().is_some_and(|m| m.value.enabled))
    {
        if let Some(m) = &g.mig {
            s.mig_enabled = Some(Fact::new(true, m.source.clone()));
        }
    }
    if let Some(src) = &c.mig {
        s.mig_enabled.get_or_insert_with(|| {
            Fact::new(true, src).with_note("a MIG device or mode named in the paste")
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::ingest;
    use crate::inventory::{GpuVendor, Inventory, OsKind};

    fn run(text: &str) -> Inventory {
        ingest(&[("t".to_string(), text.to_string())])
    }

    #[test]
    fn a_driver_installed_inside_wsl_is_a_linux_driver_but_not_the_windows_one() {
        // WSL #12272 in its own words.
        let inv = run("Installed GPU driver in wsl by mistake, how to recover?\n");
        let p = inv.setting.linux_driver_package.unwrap();
        assert!(p.source.ends_with("(prose)"), "{p:?}");
        for t in [
            "I installed the Windows driver and use it in WSL2.\n",
            "I did not install any driver inside WSL.\n",
            "Installed the driver on the host; CUDA in WSL fails.\n",
        ] {
            assert!(run(t).setting.linux_driver_package.is_none(), "{t}");
        }
    }

    #[test]
    fn device_numbers_said_to_differ_from_nvidia_smi_s() {
        // nanoporetech/bonito #120, its title and its body.
        for t in [
            "bonito --device and nvidia-smi device number not matching\n",
            "the device number used with `bonito --device` and the numbering shown by nvidia-smi do not refer to the same GPU\n",
        ] {
            assert!(run(t).setting.device_order_differs.is_some(), "{t}");
        }
        for t in [
            "nvidia-smi shows the device numbers 0 and 1\n",
            "the device numbers match nvidia-smi now\n",
        ] {
            assert!(run(t).setting.device_order_differs.is_none(), "{t}");
        }
    }

    #[test]
    fn an_extension_build_is_named_where_the_report_names_it() {
        let inv = run("  Building wheel for flash-attn (setup.py) ... error\n");
        assert_eq!(inv.setting.extension_build.unwrap().value, "flash-attn");
        let inv = run("so pytorch_scatter can be built and used\n");
        assert_eq!(
            inv.setting.extension_build.unwrap().value,
            "pytorch-scatter"
        );
        let inv = run("  File \"setup.py\", line 20 ... python setup.py install\n");
        assert!(inv
            .setting
            .extension_build
            .unwrap()
            .value
            .contains("not named"));
        // Setting the architecture list is for a build; pip builds torch-scatter
        // from source unless a wheel index is given.
        let inv = run("ENV TORCH_CUDA_ARCH_LIST=\"6.0 6.1 7.0+PTX\"\n");
        assert!(inv.setting.extension_build.is_some());
        let inv = run("- torch-scatter is pre-installed by pip, `pip3 install torch-scatter`\n");
        assert_eq!(inv.setting.extension_build.unwrap().value, "torch-scatter");
        for t in [
            "Successfully installed flash-attn-2.5.8\n",
            "the wheel is built for cu121\n",
            "pip install torch-scatter -f https://data.pyg.org/whl/torch-2.1.0+cu121.html\n",
        ] {
            assert!(run(t).setting.extension_build.is_none(), "{t}");
        }
    }

    #[test]
    fn a_gpu_asked_for_by_index_and_counts_that_are_not_indices() {
        for (t, want) in [
            (
                "python chainer/examples/mnist/train_mnist.py --gpu 1\n",
                "1",
            ),
            ("model.to('cuda:2')\n", "2"),
            ("torch.cuda.set_device(1)\n", "1"),
        ] {
            assert_eq!(run(t).setting.device_index.unwrap().value, want, "{t}");
        }
        for t in [
            "docker run --gpus 2 image\n",
            "python tools/train.py cfg.py --gpus 1\n",
            "python train.py --gpu 0\n",
            "x = x.to('cuda:0')\n",
        ] {
            assert!(run(t).setting.device_index.is_none(), "{t}");
        }
    }

    #[test]
    fn a_macos_release_and_rocm_said_to_be_absent() {
        assert_eq!(
            super::mac_release("OS X Yosemite 10.10.5").as_deref(),
            Some("10.10.5")
        );
        assert_eq!(
            super::mac_release("macOS 10.13.6 with a GTX 1080").as_deref(),
            Some("10.13.6")
        );
        assert_eq!(super::mac_release("macOS Sonoma 14.2"), None);
        assert_eq!(super::mac_release("osx 10. something"), None);
        for t in [
            " Version                 : Could not collect",
            " platform is not available because: No module named 'amdsmi'",
            ": Disabled; Neuron: Disabled",
        ] {
            assert!(super::rocm_absent(&t.to_ascii_lowercase()), "{t}");
        }
        assert!(!super::rocm_absent(" version: 6.2.41133"));
        assert!(!super::rocm_absent(" 6.2 on an RX 7900 XTX"));
    }

    #[test]
    fn secure_boot_said_to_be_on_and_an_m1_mac_in_prose() {
        // NVIDIA/gpu-driver-container #44 and maszhongming/UniEval #4, in their words.
        let inv =
            run("They build the driver container on Ubuntu 24.04, with Secure Boot turned on.\n");
        assert!(inv.os.secure_boot.unwrap().value);
        for t in [
            "It used to work when Secure Boot was off.\n",
            "I disabled secure boot in the BIOS\n",
        ] {
            assert!(run(t).os.secure_boot.is_none(), "{t}");
        }
        let inv = run("Calling get_evaluator(task) on an M1 Mac stops with an AssertionError\n");
        assert_eq!(inv.os.kind.map(|k| k.value), Some(OsKind::Macos));
        assert_eq!(run("the machine's mac address changed\n").os.kind, None);
        // DeepGraphLearning/ULTRA #8: a zsh prompt on a MacBook Pro's host name.
        let inv = run("(custom_env) me@MY-MBP ULTRA % pip install torch==2.1.0\n");
        assert_eq!(inv.os.kind.map(|k| k.value), Some(OsKind::Macos));
    }

    #[test]
    fn windows_named_as_the_platform_in_a_template_or_a_sentence_s_start() {
        // raryelcostasouza/pyTranscriber #56: "OS: windows", "On Windows, Whisper ...".
        for t in [
            "OS: windows\n",
            "On Windows, Whisper in the app runs on the CPU\n",
        ] {
            assert_eq!(
                run(t).os.kind.map(|k| k.value),
                Some(OsKind::Windows),
                "{t}"
            );
        }
        assert_eq!(run("I dual boot, and on windows it works\n").os.kind, None);
    }

    #[test]
    fn apple_chip_in_prose_is_macos() {
        let inv = run("trainer throw \"Torch not compiled with CUDA enabled\"\n\nPlatform: M1\n");
        let k = inv.os.kind.unwrap();
        assert_eq!(k.value, OsKind::Macos);
        assert_eq!(k.source, "input line 3");
        assert!(k.note.unwrap().contains("clue"));
    }

    #[test]
    fn a_mac_home_directory_is_capitalised() {
        let inv = run("  File \"/Users/me/envs/x/lib/python3.8/site-packages/torch/cuda/__init__.py\", line 293\n");
        assert_eq!(inv.os.kind.map(|k| k.value), Some(OsKind::Macos));
        // JuliaLang/CUDA.jl-era cluster homes: /users/NAME on Linux.
        let inv = run("  [3] lookup at /users/daluthge/.julia/packages/CUDAapi/src/call.jl:29\n");
        assert_ne!(inv.os.kind.map(|k| k.value), Some(OsKind::Macos));
    }

    #[test]
    fn an_amd_card_in_chinese() {
        // zai-org/ChatGLM2-6B#426: "is an AMD graphics card not supported?"
        let inv = run("请问是不是不支持AMD显卡？Torch not compiled with CUDA enabled\n");
        assert!(inv.pci.iter().any(|p| p.vendor == GpuVendor::Amd));
        assert!(run("AMD CPU, 32GB RAM\n").pci.is_empty());
    }

    #[test]
    fn a_colab_notebook() {
        let inv =
            run("Fooocus colab.research.google.com/drive .gradio.live Found no NVIDIA driver\n");
        assert!(inv.setting.colab.unwrap().value);
        let inv = run("I run it in Colab with a T4\n");
        assert!(inv.setting.colab.is_some());
        let inv = run("git clone https://github.com/hollowstrawberry/kohya-colab\n");
        assert!(inv.setting.colab.is_none());
    }

    #[test]
    fn an_arm64_macos_wheel_is_a_mac() {
        // sun1638650145/Libraries-and-Extensions-for-TensorFlow-for-Apple-Silicon#20.
        let inv = run("pip install https://example.org/v2.15/tensorflow-2.15.0-cp311-cp311-macosx_14_0_arm64.whl\n");
        assert_eq!(inv.os.kind.unwrap().value, OsKind::Macos);
        let inv = run("pip install tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.whl\n");
        assert!(inv.os.kind.is_none());
    }

    #[test]
    fn radeon_is_an_amd_gpu_but_not_next_to_an_nvidia_name() {
        let inv = run("GPU: AMD Radeon RX 570 (8 GB)\n");
        let p = &inv.pci[0];
        assert_eq!(p.vendor, GpuVendor::Amd);
        assert_eq!(p.name.as_deref(), Some("AMD Radeon RX 570"));
        let inv = run("benchmarks: NVIDIA RTX 4090 vs RX 7900 XTX\n");
        assert!(inv.pci.is_empty());
    }

    #[test]
    fn an_amd_card_named_in_prose_is_amd_even_beside_a_denied_nvidia_gpu() {
        // StableSwarmUI #269: the server said "no Nvidia GPU" on an AMD card.
        let inv = run("On an AMD card under Ubuntu the server then reports \"no Nvidia GPU\".\n");
        let p = &inv.pci[0];
        assert_eq!(p.vendor, GpuVendor::Amd);
        assert_eq!(p.name.as_deref(), Some("AMD (no model named)"));
        let inv = run("the AMD card is the display, the NVIDIA GPU runs CUDA\n");
        assert!(inv.pci.is_empty());
        let inv = run("AMD Ryzen 9 5950X with an NVIDIA RTX 3090\n");
        assert!(inv.pci.is_empty());
    }

    #[test]
    fn a_platform_clue_cut_at_a_space_is_read_across_the_cut() {
        let inv = run("TypeError: Operation 'abs_out_mps()' does not support input type 'int64' in MPS\nbackend.\n");
        assert_eq!(inv.os.kind.map(|k| k.value), Some(OsKind::Macos));
        let inv = run("TypeError: Operation 'abs_out_mps()' is not in MPS\n\nbackend was set\n");
        assert_eq!(inv.os.kind, None);
    }

    #[test]
    fn an_indented_or_listed_rocm_template_line_names_no_gpu() {
        for t in [
            "    ROCM used to build PyTorch: N/A\n",
            "- ROCM used to build PyTorch: N/A\n",
            "| HIP runtime version: N/A\n",
        ] {
            assert!(run(t).pci.is_empty(), "{t}");
        }
        assert_eq!(run("  ROCm 6.2 on gfx1100\n").pci.len(), 1);
    }

    #[test]
    fn a_rocm_flag_names_no_gpu_and_the_stack_s_name_is_no_model() {
        // apptainer/singularity #5002: `--nv --rocm` are the command's flags.
        let inv =
            run("Title: --nv --rocm won't find correct ldconfig when run from Nix userspace\n");
        assert!(inv.pci.is_empty());
        let inv = run("I run it on ROCm and it won't start\n");
        assert_eq!(
            inv.pci[0].name.as_deref(),
            Some("AMD (no model named; the report names ROCm)")
        );
    }

    #[test]
    fn wsl_outranks_windows_paths() {
        let inv = run("Linux DESKTOP 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64\nC:\\Users\\me> wsl --update\n");
        assert!(inv.wsl.is_wsl.unwrap().value);
        assert_ne!(inv.os.kind.map(|k| k.value), Some(OsKind::Windows));
    }

    #[test]
    fn docker_run_with_and_without_gpus() {
        let inv = run(
            "$ docker run -it --rm \\\n   --gpus all \\\n   nvcr.io/nvidia/pytorch:24.01-py3\n",
        );
        assert!(inv.setting.docker_run_gpus.unwrap().value);
        let inv = run("$ docker run -it --rm -v /data:/data myimage python train.py\n");
        let f = inv.setting.docker_run_gpus.unwrap();
        assert!(!f.value);
        assert_eq!(f.source, "input line 1");
        assert_eq!(inv.container.runtime.unwrap().value, "docker");
    }

    #[test]
    fn ray_and_slurm() {
        let inv = run("@ray.remote\ndef f():\n    import torch\n");
        assert!(inv.setting.ray_without_gpus.unwrap().value);
        let inv = run("@ray.remote(num_gpus=1)\ndef f(): pass\n");
        assert!(inv.setting.ray_without_gpus.is_none());
        let inv = run("#SBATCH --partition=gpu\n#SBATCH --gres=gpu:1\n");
        assert!(inv.setting.slurm_gpus.unwrap().value);
        let inv = run("#SBATCH --partition=gpu\nsrun python train.py\n");
        assert!(!inv.setting.slurm_gpus.unwrap().value);
        assert!(inv.setting.slurm_gpus_per_task.is_none());
        let inv = run("#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-task=1\n");
        assert!(inv.setting.slurm_gpus.unwrap().value);
        assert!(inv.setting.slurm_gpus_per_task.unwrap().value);
    }

    #[test]
    fn mig_device_names() {
        let inv = run("torch 2.5.0 on 2 GPU NVIDIA-A100-SXM4-80GB-MIG-3g.40gb\n");
        assert!(inv.setting.mig_enabled.unwrap().value);
        let inv = run("(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error\n");
        assert_eq!(inv.container.runtime.unwrap().source, "input line 1");
        // nvidia-smi's own answer to `-mig 1` (wilicc/gpu-burn#122), not to `-mig 0`.
        let inv = run(
            "$ sudo nvidia-smi -i 0 -mig 1\nEnabled MIG Mode for GPU 00000000:06:00.0\nAll done.\n",
        );
        assert_eq!(inv.setting.mig_enabled.unwrap().source, "input line 2");
        let inv =
            run("$ sudo nvidia-smi -i 0 -mig 0\nDisabled MIG Mode for GPU 00000000:06:00.0\n");
        assert!(inv.setting.mig_enabled.is_none());
    }

    #[test]
    fn jetson() {
        let inv = run("R35 (release), REVISION: 4.1 nvidia-l4t-core 35.4.1 Jetson AGX Orin\n");
        assert!(inv.setting.jetson.unwrap().value);
    }

    #[test]
    fn a_failure_that_began_after_an_update() {
        for t in [
            "Training fails after a recent Ubuntu 20.04 update; it worked the day before.\n",
            "It broke after the nvidia driver upgrade.\n",
            "after running sudo apt upgrade the GPU is gone\n",
            "This worked fine yesterday.\n",
        ] {
            assert!(run(t).setting.after_update.is_some(), "{t}");
        }
        // A command that updates, a plan to update, and a tool's update notice are no such report.
        for t in [
            "RUN apt-get update && apt-get install -y python3\n",
            "I will try to update the driver next.\n",
            "pip notice: a new release of pip is available, run pip install --upgrade pip\n",
        ] {
            assert!(run(t).setting.after_update.is_none(), "{t}");
        }
    }

    #[test]
    fn ordinary_logs_have_no_clues() {
        let inv = run(
            "Epoch 1/10 loss=0.2\nUsing device cuda:0\nSaved checkpoint to /data/run1/ckpt.pt\n",
        );
        assert!(inv.os.kind.is_none());
        assert!(inv.pci.is_empty());
        assert!(inv.setting.is_empty());
    }
}
