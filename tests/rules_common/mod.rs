//! Shared builders for the rule tests: inventories in the Inventory's own
//! shape, each fact with a realistic source, and the firing / near-miss
//! inventory of every rule.
#![allow(dead_code)]

use gpucompat::finding::Finding;
use gpucompat::inventory::*;
use gpucompat::kb::{GpuLookup, Kb};
use gpucompat::rules;
use gpucompat::version::parse_arch_list;

pub fn f<T>(value: T, source: &str) -> Option<Fact<T>> {
    Some(Fact::new(value, source))
}

pub fn kb() -> &'static Kb {
    Kb::embedded()
}

pub fn run(inv: &Inventory) -> Vec<Finding> {
    rules::run_rules(inv, kb())
}

pub fn codes(inv: &Inventory) -> Vec<String> {
    run(inv).into_iter().map(|f| f.code).collect()
}

pub fn fired(inv: &Inventory, code: &str) -> Vec<Finding> {
    run(inv).into_iter().filter(|f| f.code == code).collect()
}

/// A fluent builder over an Inventory.
pub struct B(pub Inventory);

const VENV: &str = "/home/ana/.venv";
const SITE: &str = "/home/ana/.venv/lib/python3.11/site-packages";

impl B {
    /// A probed Ubuntu 22.04 x86_64 machine with nothing else.
    pub fn linux() -> B {
        let mut inv = Inventory::new("probe /");
        inv.os.kind = f(OsKind::Linux, "uname");
        inv.os.id = f("ubuntu".into(), "/etc/os-release");
        inv.os.version_id = f("22.04".into(), "/etc/os-release");
        inv.os.arch = f("x86_64".into(), "uname -m");
        B(inv)
    }

    pub fn macos() -> B {
        let mut inv = Inventory::new("probe /");
        inv.os.kind = f(OsKind::Macos, "uname");
        inv.os.arch = f("arm64".into(), "uname -m");
        inv.apple.chip = f("Apple M2 Max".into(), "sysctl machdep.cpu.brand_string");
        inv.apple.mps_available = f(true, "python:/home/ana/.venv/bin/python");
        B(inv)
    }

    pub fn windows() -> B {
        let mut inv = Inventory::new("probe /");
        inv.os.kind = f(OsKind::Windows, "ver");
        inv.os.arch = f("x86_64".into(), "PROCESSOR_ARCHITECTURE");
        B(inv)
    }

    pub fn wsl() -> B {
        let mut b = B::linux();
        b.0.wsl.is_wsl = f(true, "/proc/version");
        b.0.wsl.lib_dir = f(true, "/usr/lib/wsl/lib");
        b.0.wsl.libcuda_in_lib_dir = f(true, "/usr/lib/wsl/lib/libcuda.so.1");
        b
    }

    /// A healthy Linux driver: module, libraries, NVML, device nodes. `cuda_max` as NVML reports it.
    pub fn driver(mut self, v: &str, cuda_max: Option<&str>) -> B {
        let d: gpucompat::version::DriverVersion = v.parse().expect("driver version");
        let n = &mut self.0.nvidia;
        if self.0.wsl.is_wsl.is_none() {
            n.kernel_module = f(d.clone(), "/proc/driver/nvidia/version");
            n.module_loaded = f(true, "/sys/module/nvidia");
            for lib in ["libcuda", "libnvidia-ml"] {
                let path = format!("/usr/lib/x86_64-linux-gnu/{lib}.so.{v}");
                n.user_libraries.push(UserLibrary {
                    name: lib.into(),
                    path: path.clone(),
                    version: Fact::new(d.clone(), path),
                });
            }
            n.device_nodes = vec![
                DeviceNode {
                    path: "/dev/nvidiactl".into(),
                    readable: true,
                },
                DeviceNode {
                    path: "/dev/nvidia0".into(),
                    readable: true,
                },
                DeviceNode {
                    path: "/dev/nvidia-uvm".into(),
                    readable: true,
                },
            ];
        }
        n.driver_version = f(d, "NVML");
        if let Some(c) = cuda_max {
            n.cuda_max = f(c.parse().expect("cuda"), "NVML");
        }
        n.smi_ok = f(true, "NVML");
        self
    }

    /// A GPU as NVML lists it, with its PCI device (bound to nvidia) when the kb knows the id.
    pub fn gpu(mut self, name: &str) -> B {
        let index = self.0.gpus.len() as u32;
        let row = match kb().gpu(name) {
            GpuLookup::Found(r) => r.clone(),
            other => panic!("test GPU {name}: {other:?}"),
        };
        let bus = format!("0000:{:02x}:00.0", index + 1);
        let mut g = Gpu {
            index,
            name: f(name.into(), "NVML"),
            uuid: f(
                format!("GPU-{index:08x}-1111-2222-3333-444455556666"),
                "NVML",
            ),
            compute_capability: row.compute_capability.and_then(|c| f(c, "NVML")),
            memory_mib: f(24576, "NVML"),
            brand: f(
                match row.segment {
                    Segment::Datacenter => "nvidia".into(),
                    Segment::Workstation => "nvidia_rtx".into(),
                    _ => "geforce".into(),
                },
                "NVML",
            ),
            ..Default::default()
        };
        if let Some(id) = row.pci_device_id.clone() {
            g.pci_bus_id = f(format!("0000{bus}"), "NVML");
            self.0.pci.push(PciDevice {
                address: bus.clone(),
                vendor: GpuVendor::Nvidia,
                vendor_id: "0x10de".into(),
                device_id: id,
                class: "0x030200".into(),
                driver: Some("nvidia".into()),
                name: Some(name.into()),
                source: format!("/sys/bus/pci/devices/{bus}"),
                vram_mib: None,
            });
        }
        self.0.gpus.push(g);
        self
    }

    /// An NVIDIA device on the PCI bus only (the driver lists nothing), with its bound driver.
    pub fn pci_nvidia(mut self, device_id: &str, driver: Option<&str>) -> B {
        let bus = format!("0000:{:02x}:00.0", self.0.pci.len() + 1);
        self.0.pci.push(PciDevice {
            address: bus.clone(),
            vendor: GpuVendor::Nvidia,
            vendor_id: "0x10de".into(),
            device_id: device_id.into(),
            class: "0x030000".into(),
            driver: driver.map(String::from),
            name: None,
            source: format!("/sys/bus/pci/devices/{bus}"),
            vram_mib: None,
        });
        self
    }

    fn env(&mut self) -> &mut PythonEnv {
        if self.0.python.is_empty() {
            self.0.python.push(PythonEnv {
                path: VENV.into(),
                interpreter: Some(format!("{VENV}/bin/python")),
                python_version: f("3.11.9".into(), "/home/ana/.venv/pyvenv.cfg"),
                kind: EnvKind::Venv,
                active: true,
                site_packages: vec![SITE.into()],
                ..Default::default()
            });
        }
        self.0.python.last_mut().expect("env")
    }

    /// What the report printed from torch at run time (`torch.cuda.is_available()`, ...).
    pub fn runtime(mut self, set: impl FnOnce(&mut PythonRuntime)) -> B {
        set(self.env().runtime.get_or_insert_with(Default::default));
        self
    }

    pub fn package(mut self, name: &str, version: &str) -> B {
        let e = self.env();
        e.packages.push(PyPackage {
            name: name.into(),
            version: version.into(),
            source: format!(
                "{SITE}/{}-{version}.dist-info/METADATA",
                name.replace('-', "_")
            ),
            editable: false,
        });
        e.packages.sort_by(|a, b| a.name.cmp(&b.name));
        self
    }

    /// torch as torch/version.py records it; `cuda` None is a CPU build.
    pub fn torch(mut self, version: &str, cuda: Option<&str>) -> B {
        let src = format!("{SITE}/torch/version.py");
        self = self.package("torch", version);
        self.env().torch = Some(TorchBuild {
            version: f(version.into(), &src),
            cuda: f(cuda.map(|c| c.parse().expect("cuda")), &src),
            ..Default::default()
        });
        self
    }

    /// torch.cuda.get_arch_list() as Python reported it.
    pub fn torch_arch(mut self, list: &str) -> B {
        if let Some(t) = self.env().torch.as_mut() {
            t.arch_list = f(
                parse_arch_list(list).expect("arch list"),
                "python:/home/ana/.venv/bin/python",
            );
        }
        self
    }

    pub fn framework(
        mut self,
        which: &str,
        version: &str,
        cuda: Option<&str>,
        cudnn: Option<&str>,
    ) -> B {
        let src = format!("{SITE}/{which}/build_info.py");
        let fw = FrameworkBuild {
            version: f(version.into(), &src),
            cuda: cuda.and_then(|c| f(c.parse().expect("cuda"), &src)),
            cudnn: cudnn.and_then(|c| f(c.into(), &src)),
            ..Default::default()
        };
        let e = self.env();
        match which {
            "onnxruntime" => e.onnxruntime = Some(fw),
            "tensorflow" => e.tensorflow = Some(fw),
            "jax" => e.jax = Some(fw),
            "tensorrt" => e.tensorrt = Some(fw),
            _ => panic!("framework {which}"),
        }
        self
    }

    pub fn env_var(mut self, k: &str, v: &str) -> B {
        self.0
            .env
            .insert(k.into(), Fact::new(v.into(), "/proc/self/environ"));
        self
    }

    pub fn toolkit(mut self, path: &str, version: &str, nvcc: bool) -> B {
        self.0.toolkits.push(Toolkit {
            path: path.into(),
            version: Fact::new(
                version.parse().expect("cuda"),
                format!("{path}/version.json"),
            ),
            has_nvcc: nvcc,
            has_compat: false,
        });
        self
    }

    pub fn container(mut self, runtime: &str) -> B {
        self.0.container.runtime = f(runtime.into(), "/.dockerenv");
        self
    }

    pub fn error(mut self, kind: ErrorKind, text: &str) -> B {
        self.0.errors.push(ObservedError {
            kind,
            text: text.into(),
            source: "input line 12".into(),
            code: None,
        });
        self
    }

    pub fn with(mut self, edit: impl FnOnce(&mut Inventory)) -> B {
        edit(&mut self.0);
        self
    }

    pub fn build(self) -> Inventory {
        self.0
    }
}

/// A pasted report: only the error is known.
pub fn pasted(kind: ErrorKind, text: &str) -> Inventory {
    B(Inventory::new("explain issue.txt"))
        .error(kind, text)
        .build()
}

/// A pasted error in a setting the context stage recorded.
pub fn in_setting(kind: ErrorKind, text: &str, set: impl FnOnce(&mut Inventory)) -> Inventory {
    let mut inv = pasted(kind, text);
    set(&mut inv);
    inv
}

pub fn lib(path: &str, version: &str) -> LibraryInstall {
    LibraryInstall {
        path: path.into(),
        version: Fact::new(version.into(), path.to_string()),
        built_for_cuda: None,
    }
}

/// A `libcudnn8` package row: its version and the CUDA it was built for.
pub fn cudnn_pkg(version: &str, cuda: &str) -> LibraryInstall {
    let src = "dpkg -l";
    LibraryInstall {
        path: "package libcudnn8".into(),
        version: Fact::new(version.into(), src),
        built_for_cuda: Some(Fact::new(cuda.parse().expect("cuda"), src)),
    }
}

pub fn h100_hgx(driver: &str) -> B {
    let mut b = B::linux().driver(driver, Some("12.2"));
    for _ in 0..8 {
        b = b.gpu("NVIDIA H100 80GB HBM3");
    }
    b.with(|i| {
        i.fabric.nvswitch_count = f(4, "/dev/nvidia-nvswitch*");
    })
}

pub fn mig_a100(driver: &str, instances: Option<u32>, enabled: bool) -> Inventory {
    B::linux()
        .driver(driver, None)
        .gpu("NVIDIA A100-SXM4-80GB")
        .with(|i| {
            i.gpus[0].mig = f(MigInfo { enabled, instances }, "NVML");
        })
        .build()
}

/// Driver 580 with its proprietary kernel module, driving `gpu`.
fn proprietary_module_on(gpu: &str) -> Inventory {
    B::linux()
        .driver("580.159.03", Some("13.0"))
        .gpu(gpu)
        .with(|i| {
            i.nvidia.module_flavor = f(ModuleFlavor::Proprietary, "/proc/driver/nvidia/version")
        })
        .build()
}

/// jaxlib 0.3.15 with the CUDA toolkit `toolkit`, on driver R470 (CUDA 11.4),
/// failing with "no kernel image".
fn jax_on_470(toolkit: &str) -> Inventory {
    B::linux()
        .driver("470.82.01", Some("11.4"))
        .gpu("NVIDIA A100-SXM4-40GB")
        .package("jaxlib", "0.3.15")
        .toolkit("/usr/local/cuda", toolkit, true)
        .error(
            ErrorKind::NoKernelImage,
            "RuntimeError: Unknown: no kernel image is available for execution on the device",
        )
        .build()
}

/// The inventory that makes each rule fire.
/// A report whose only signal is a line that mentions `topic`.
/// An inventory changed by `f`.
/// TensorFlow installed with pip beside conda's cudatoolkit and cudnn, and
/// TensorFlow's cuDNN load failure.
fn tf_with_conda_libs() -> B {
    B::linux()
        .package("tensorflow", "2.7.0")
        .with(|i| {
            for (name, version) in [("cudatoolkit", "11.2"), ("cudnn", "8.1")] {
                i.python[0].packages.push(PyPackage {
                    name: name.into(),
                    version: version.into(),
                    source: "input line 3 (conda install)".into(),
                    editable: false,
                });
            }
        })
        .error(ErrorKind::CudnnMissing, "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory")
}

pub fn on(mut inv: Inventory, f: impl FnOnce(&mut Inventory)) -> Inventory {
    f(&mut inv);
    inv
}

pub fn mentioning(topic: Topic, text: &str, failing: bool) -> Inventory {
    B::linux()
        .with(|i| {
            i.setting.mentions.push(Mention {
                topic,
                text: text.into(),
                source: "input line 1".into(),
                failing,
            })
        })
        .build()
}

pub fn firing(code: &str) -> Inventory {
    firing_first(code).unwrap_or_else(|| firing_rest(code))
}

/// The first half of [`firing`]'s rules. Split in two, called one after the
/// other, so no test thread holds both halves' stack frames at once: one
/// match over every rule is too deep for a debug build's 2 MiB test stack.
fn firing_first(code: &str) -> Option<Inventory> {
    use ErrorKind::*;
    Some(match code {
        "DRV001" => B::linux()
            .driver("550.54.14", None)
            .with(|i| {
                for l in &mut i.nvidia.user_libraries {
                    if l.name == "libnvidia-ml" {
                        l.path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.90.07".into();
                        l.version = Fact::new("550.90.07".parse().unwrap(), l.path.clone());
                    }
                }
                i.nvidia.driver_version = None;
                i.nvidia.smi_ok = f(false, "nvidia-smi");
            })
            .build(),
        "DRV002" => B::linux()
            .pci_nvidia("0x2204", Some("nouveau"))
            .with(|i| i.nvidia.module_loaded = f(false, "/sys/module/nvidia"))
            .build(),
        "DRV003" => B::linux()
            .driver("535.104.05", None)
            .with(|i| {
                i.nvidia.device_nodes.clear();
                i.nvidia.smi_ok = f(false, "nvidia-smi");
            })
            .build(),
        "DRV004" => B::linux().driver("470.82.01", None).pci_nvidia("0x2330", None).build(),
        "DRV006" => hung_4090(Some("timed out after 5.0 s and was killed")),
        "DRV008" => proprietary_module_on("NVIDIA B200"),
        "DRV009" => B::linux().driver("495.29.05", Some("11.5")).build(),
        "DRV007" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .with(|i| {
                i.nvidia.smi_ok = Some(
                    Fact::new(false, "nvidia-smi").with_note("timed out after 5.0 s and was killed"),
                )
            })
            .build(),
        "DRV005" => B::linux().driver("560.35.03", Some("12.6")).gpu("NVIDIA H100 80GB HBM3").build(),
        "RUN001" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.9.0+cu130", Some("13.0"))
            .build(),
        "RUN002" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu124", Some("12.4"))
            .build(),
        "RUN003" => B::linux()
            .driver("560.35.03", Some("12.6"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        "RUN004" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 3090")
            .toolkit("/usr/local/cuda", "12.8.0", true)
            .build(),
        "ARCH001" => B::linux()
            .driver("570.124.04", Some("12.8"))
            .gpu("NVIDIA GeForce RTX 5090")
            .torch("2.6.0+cu124", Some("12.4"))
            .build(),
        "ARCH002" => B::linux()
            .driver("570.124.04", Some("12.8"))
            .gpu("NVIDIA GeForce RTX 5090")
            .torch("2.5.1+cu124", Some("12.4"))
            .torch_arch("sm_80 sm_86 compute_90")
            .build(),
        "ARCH003" => B::linux().driver("590.48.01", Some("13.1")).gpu("NVIDIA GeForce GTX 1080").build(),
        "ARCH005" => B::linux()
            .gpu("Tesla K80")
            .error(SmiNoDriver, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.")
            .build(),
        // A CUDA 13 framework with no arch list of its own (every torch cu130 row has one).
        "ARCH004" => B::linux()
            .driver("580.65.06", Some("13.0"))
            .gpu("NVIDIA GeForce GTX 1080")
            // A nightly: no torch_arch row, so only the CUDA major tells.
            .torch("2.16.0.dev20261101+cu130", Some("13.0"))
            .build(),
        "WHL001" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cpu", None)
            .build(),
        "WHL002" => amd(B::linux()).torch("2.5.1+cu124", Some("12.4")).build(),
        "WHL003" => amd(B::linux())
            .torch("2.5.1+rocm6.2", None)
            .with(|i| {
                if let Some(t) = i.python[0].torch.as_mut() {
                    t.hip = f(Some("6.2.41133-dd7f95766".into()), "/home/ana/.venv/lib/python3.11/site-packages/torch/version.py");
                }
                i.amd.rocm_version = f("6.1.2".into(), "/opt/rocm/.info/version");
            })
            .build(),
        "PLAT001" => B::macos()
            .torch("2.5.1", None)
            .package("nvidia-cudnn-cu12", "9.1.0.70")
            .env_var("CUDA_HOME", "/usr/local/cuda")
            .build(),
        "PLAT002" => B::wsl()
            .driver("552.22", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .with(|i| {
                let p = "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14";
                i.nvidia.user_libraries.push(UserLibrary {
                    name: "libcuda".into(),
                    path: p.into(),
                    version: Fact::new("550.54.14".parse().unwrap(), p.to_string()),
                });
            })
            .build(),
        "PLAT003" => B::wsl()
            .gpu("NVIDIA GeForce RTX 4090")
            .with(|i| i.wsl.libcuda_in_lib_dir = f(false, "/usr/lib/wsl/lib"))
            .build(),
        "PLAT004" => B::wsl()
            .driver("560.94", Some("12.6"))
            .gpu("NVIDIA GeForce RTX 4090")
            .torch("2.9.0+cu130", Some("13.0"))
            .build(),
        "PLAT008" => B::wsl()
            .error(NoDevice, "No devices were found")
            .build(),
        "PLAT005" => B::windows().driver("552.22", Some("12.4")).gpu("NVIDIA A100 80GB PCIe").build(),
        "PLAT006" => B::windows()
            .driver("552.22", Some("12.4"))
            .gpu("NVIDIA A100 80GB PCIe")
            .with(|i| i.gpus[0].driver_model = f(DriverModel::Wddm, "nvidia-smi"))
            .build(),
        "PLAT007" => B::linux().build(),
        "CTR001" => B::linux()
            .container("docker")
            .env_var("NVIDIA_VISIBLE_DEVICES", "void")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        // An RTX 4090 (sm_89) next to CUDA 11.7, whose nvcc stops at sm_87.
        "ARCH007" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .toolkit("/usr/local/cuda-11.7", "11.7.64", true)
            .build(),
        // NVENC's SDK needs a driver past Kepler's last branch (R470).
        "ARCH008" => B::linux()
            .gpu("NVIDIA GeForce GTX 660")
            .error(DriverTooOld, "[h264_nvenc @ 0x559c0662ffc0] The minimum required Nvidia driver for nvenc is 520.56.06 or newer")
            .build(),
        "ARCH006" => B::linux()
            .gpu("Tesla K80")
            .error(CudaUnavailable, "ollama can't find my gpu and uses the cpu")
            .with(|i| i.setting.app = f("ollama".into(), "input line 1"))
            .build(),
        "CTR004" => B::linux()
            .error(InsufficientDriver, "Failed to allocate device vector A (error code CUDA driver version is insufficient for CUDA runtime version)!")
            .with(|i| i.setting.k3s = f("k3s".into(), "input line 3"))
            .build(),
        "CTR003" => B::linux()
            .with(|i| {
                i.setting.l4t_host = f(36, "input line 1");
                i.setting.l4t_image = f("dustynv/l4t-ml:r35.4.1".into(), "input line 3");
                i.setting.l4t_image_release = f(35, "input line 3");
            })
            .build(),
        "CTR005" => B::linux()
            .with(|i| {
                i.setting.l4t_host = f(32, "input line 1");
                i.setting.l4t_image = f("nvcr.io/nvidia/l4t-ml:r34.1.0".into(), "input line 3");
                i.setting.l4t_image_release = f(34, "input line 3");
            })
            .build(),
        "CTR002" => B::linux()
            .container("docker")
            .driver("470.82.01", Some("11.4"))
            .gpu("NVIDIA GeForce RTX 3090")
            .env_var("CUDA_VERSION", "12.4.1")
            .env_var(
                "NVIDIA_REQUIRE_CUDA",
                "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471",
            )
            .build(),
        "ENV001" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .env_var("CUDA_VISIBLE_DEVICES", "")
            .build(),
        "ENV002" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .env_var("LD_LIBRARY_PATH", "/usr/local/cuda-11.8/lib64:/usr/lib/x86_64-linux-gnu")
            .build(),
        "ENV003" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .toolkit("/usr/local/cuda-12.1", "12.1.105", true)
            .env_var("CUDA_HOME", "/usr/local/cuda-11.8")
            .build(),
        "LIB001" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .package("onnxruntime-gpu", "1.20.1")
            .framework("onnxruntime", "1.20.1", Some("12.2"), None)
            .package("nvidia-cudnn-cu12", "8.9.2.26")
            .package("nvidia-cuda-runtime-cu12", "12.4.127")
            .build(),
        "LIB002" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .torch("2.5.1+cu124", Some("12.4"))
            .package("tensorrt-cu11", "10.0.1")
            .build(),
        "LIB003" => B::linux()
            .with(|i| {
                i.libraries.tensorrt = vec![
                    lib("/usr/lib/x86_64-linux-gnu/libnvinfer.so.8.6.1", "8.6.1"),
                    lib("/opt/TensorRT-10.0.1/lib/libnvinfer.so.10.0.1", "10.0.1"),
                ]
            })
            .build(),
        "LIB004" => B::linux()
            .gpu("NVIDIA GeForce RTX 4090")
            .framework("tensorrt", "10.0.1", Some("12.4"), None)
            .build(),
        "LIB005" => B::linux()
            .package("onnxruntime", "1.20.1")
            .package("onnxruntime-gpu", "1.20.1")
            .build(),
        "LIB006" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .package("onnxruntime-gpu", "1.20.1")
            .package("nvidia-cuda-runtime-cu11", "11.8.89")
            .build(),
        "LIB007" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .build(),
        "LIB008" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .package("nvidia-cudnn-cu11", "8.5.0.96")
            .package("nvidia-cudnn-cu12", "9.1.0.70")
            .build(),
        "LIB009" => B::linux()
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .package("jaxlib", "0.4.6+cuda11.cudnn82")
            .with(|i| i.libraries.cudnn = vec![cudnn_pkg("8.8.0.121", "12.0")])
            .build(),
        // TensorFlow 2.1 (CUDA 10.1) beside CUDA 10.2: other library names.
        "LIB010" => B::linux()
            .toolkit("/usr/local/cuda-10.2", "10.2.89", true)
            .package("tensorflow", "2.1.0")
            .framework("tensorflow", "2.1.0", None, None)
            .build(),
        _ => return None,
    })
}

/// The second half of [`firing`]'s rules.
fn firing_rest(code: &str) -> Inventory {
    use ErrorKind::*;
    match code {
        "FAB001" => h100_hgx("535.104.05")
            .with(|i| i.fabric.fabric_manager_installed = f(false, "systemctl"))
            .build(),
        "MIG001" => mig_a100("535.104.05", Some(2), true),
        "MIG002" => mig_a100("535.104.05", Some(0), true),
        "MAC001" => B::macos()
            .torch("2.2.2", None)
            .with(|i| {
                i.apple.apple_silicon = f(true, "sysctl hw.optional.arm64");
                i.python[0].arch = f("x86_64".into(), "/Users/ana/miniconda3/bin/python3.12");
            })
            .build(),
        "MAC002" => B::macos().torch("1.11.0", None).build(),
        "MAC003" => B::macos()
            .torch("2.2.2", None)
            .with(|i| i.os.version_id = f("12.2.1".into(), "/System/Library/CoreServices/SystemVersion.plist"))
            .build(),
        "WIN001" => B::windows()
            .torch("2.4.0+cu124", Some("12.4"))
            .with(|i| {
                i.windows.vc_runtime.push(FileCheck {
                    name: "msvcp140.dll".into(),
                    path: "/Windows/System32/msvcp140.dll".into(),
                    present: false,
                })
            })
            .build(),
        "WIN002" => B::windows()
            .with(|i| {
                i.windows.cuda_path_vars.push(PathVar {
                    var: "CUDA_PATH".into(),
                    value: r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8".into(),
                    exists: false,
                })
            })
            .build(),
        "WIN003" => B::windows()
            .torch("2.5.1", None)
            .with(|i| i.windows.long_paths_enabled = f(false, "reg query LongPathsEnabled"))
            .build(),
        "WIN004" => B::windows()
            .driver("566.36", Some("12.7"))
            .gpu("NVIDIA GeForce RTX 4060 Ti")
            .with(|i| {
                i.windows.wsl_distros.push(WslDistro {
                    name: "Legacy".into(),
                    state: "Stopped".into(),
                    version: 1,
                    default: false,
                    source: "wsl.exe --list --verbose".into(),
                })
            })
            .build(),
        "MIG003" => mig_a100("450.51.06", Some(1), true),
        "ERR001" => pasted(NvmlDriverLibraryMismatch, "Failed to initialize NVML: Driver/library version mismatch"),
        "ERR002" => pasted(InsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version"),
        "ERR003" => pasted(CompatNotSupported, "forward compatibility was attempted on non supported HW"),
        "ERR004" => pasted(NoKernelImage, "CUDA error: no kernel image is available for execution on the device"),
        "ERR005" => pasted(TorchNotCompiledWithCuda, "AssertionError: Torch not compiled with CUDA enabled"),
        "ERR006" => pasted(SmiNoDriver, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"),
        "ERR007" => pasted(SystemNotReady, "CUDA error: system not yet initialized"),
        "ERR008" => pasted(CudnnMissing, "Could not load library libcudnn_ops.so.9"),
        "ERR009" => pasted(OrtCudaProviderFailed, "Failed to load library libonnxruntime_providers_cuda.so"),
        "ERR010" => pasted(ContainerNoGpuRuntime, "could not select device driver \"\" with capabilities: [[gpu]]"),
        "ERR011" => pasted(WslLibcuda, "Could not load /usr/lib/wsl/lib/libcuda.so.1"),
        "ERR012" => pasted(HipError, "HIP error: invalid device function"),
        "ERR013" => pasted(MpsUnavailable, "MPS backend is not available"),
        "ERR014" => pasted(NoVisibleDevices, "CUDA_VISIBLE_DEVICES hides every GPU"),
        "ERR015" => pasted(TrtEngineIncompatible, "The engine plan file is not compatible with this version of TensorRT"),
        "ERR016" => pasted(ToolkitTorchMismatch, "The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1)"),
        "ERR017" => pasted(CudaLibraryMissing, "libcublas.so.11: cannot open shared object file"),
        "ERR018" => pasted(OutOfMemory, "torch.OutOfMemoryError: CUDA out of memory"),
        "EXT001" => ext_fixture("xformers-0.0.23.post1-torch-2.1.0-cpu"),
        "EXT002" => ext_fixture("flash-attn2-t1000-turing"),
        "EXT003" => ext_fixture("flash-attn-nvcc-121-torch-cu117"),
        "EXT004" => ext_fixture("torch-cuda-arch-list-misses-3090"),
        "EXT005" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 2070 SUPER")
            .torch("2.5.1+cu124", Some("12.4"))
            .error(NoKernelImage, "RuntimeError: CUDA error: no kernel image is available for execution on the device")
            .build(),
        "ERR019" => in_setting(NoNvidiaDriver, "Found no NVIDIA driver on your system", |i| {
            i.os.kind = f(OsKind::Macos, "input line 3");
        }),
        "ERR020" => amd(B(Inventory::new("explain issue.txt")))
            .error(InsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")
            .build(),
        "ERR021" => in_setting(NoDevice, "no CUDA-capable device is detected", |i| {
            i.setting.docker_run_gpus = f(false, "input line 2");
        }),
        "ERR022" => in_setting(InitFailed, "Failed to initialize NVML: Unknown Error", |i| {
            i.container.runtime = f("docker".into(), "input line 1");
        }),
        // PLAT008 names the no-driver kinds under WSL itself; these it leaves to ERR023.
        "ERR023" => in_setting(CudaUnavailable, "torch.cuda.is_available(): False", |i| {
            i.wsl.is_wsl = f(true, "input line 1");
        }),
        "ERR024" => in_setting(NoDevice, "no CUDA-capable device is detected", |i| {
            i.setting.mig_enabled = f(true, "input line 4");
        }),
        "ERR025" => in_setting(NoDevice, "No CUDA GPUs are available", |i| {
            i.setting.ray_without_gpus = f(true, "input line 2");
        }),
        "ERR026" => pasted(ExtensionMismatch, "flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"),
        "ERR027" => pasted(LibraryShadowed, "libcublas.so.11: undefined symbol: cublasLtGetStatusString"),
        "ERR028" => pasted(CudaUnavailable, "torch.cuda.is_available(): False"),
        "ERR029" => in_setting(ExtensionMismatch, "xFormers was built for: PyTorch 2.0.1 (you have 2.1.0+cpu)", |i| {
            i.python.push(PythonEnv {
                path: "reported".into(),
                torch: Some(TorchBuild {
                    cuda: f(None, "input line 2"),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }),
        "ERR030" => pasted(GpuDroppedByDriver, "NVRM: supported through the NVIDIA 470.xx Legacy drivers."),
        "ERR031" => pasted(OpenModuleUnsupported, "NVRM: installed in this system is not supported by open nvidia.ko"),
        "ENV004" => B::linux()
            .with(|i| i.setting.visible_devices_set_late = f(true, "input line 6"))
            .build(),
        "ENV006" => B::linux()
            .with(|i| i.setting.device_order_differs = f(true, "input line 1"))
            .build(),
        "ENV007" => B::linux()
            .error(CudaLibraryMissing, "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory")
            .env_var("LD_LIBRARY_PATH", "$LD_LIBRARY_PATH:</home/ubuntu/TensorRT-8.2.1.8/lib>")
            .build(),
        "WHL004" => gpucompat::ingest::ingest(&[(
            "explain issue.txt".to_string(),
            "pytorch                   2.1.0           cpu_generic_py311h8354fdb_2    conda-forge\n".to_string(),
        )]),
        "ENV005" => B::linux()
            .error(CudnnVersionMismatch, "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked against (8, 0, 3)")
            .env_var("LD_LIBRARY_PATH", "/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64:/usr/local/cuda/lib64")
            .build(),
        "ENV008" => tf_with_conda_libs().build(),
        "CTR006" => B::linux()
            .with(|i| i.setting.cdi_spec_uvm = f(false, "input line 4"))
            .build(),
        "LIB011" => B::linux()
            .package("cudatoolkit", "11.8.0")
            .package("cuda-nvcc", "12.4.131")
            .build(),
        "ENV011" => B::linux().env_var("NVIDIA_VISIBLE_DEVICES", "1,2").build(),
        "ERR087" => pasted(AllocatorAssert, "RuntimeError: !block->expandable_segment_ INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":2814, please report a bug to PyTorch."),
        "ERR086" => pasted(OwnLibraryOffPath, "[E] [TRT] 6: [libLoader.h::DynamicLibrary::50] Error Code 6: Internal Error (Unable to load library: libnvinfer_builder_resource.so.8.4.1)"),
        "ENV014" => B::linux()
            .error(LibraryShadowed, "4709:\tfile=libnvJitLink.so.12 [0];  generating link map")
            .env_var("LD_LIBRARY_PATH", "/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64")
            .build(),
        "ENV015" => B::linux()
            .env_var("CUDA_VISIBLE_DEVICES", "2,3")
            .with(|i| i.setting.deepspeed_picks_gpus = f("deepspeed --num_gpus 2 train.py".into(), "input line 3"))
            .build(),
        "ENV013" => B::linux()
            .framework("tensorrt", "8.6.1.post1", None, None)
            .error(CudaLibraryMissing, "Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.8: cannot open shared object file: No such file or directory")
            .build(),
        "MIS007" => pasted(UsageGraphQuestion, "Task Manager reports about 50% GPU usage, but the status line at the bottom of the program's console says 9%."),
        "MIS008" => B::linux()
            .error(NoVisibleDevices, "pycuda._driver.LogicError: cuDeviceGet failed: invalid device")
            .with(|i| i.setting.device_index = f("1".into(), "input line 16"))
            .build(),
        "ENV012" => B::linux()
            .env_var("CUDA_VISIBLE_DEVICES", "3")
            .with(|i| i.setting.unexported_assignment = f("CUDA_VISIBLE_DEVICES=3".into(), "input line 4"))
            .build(),
        "ENV010" => B::linux()
            .error(HipError, "msg=\"amdgpu is not supported (supported types:[gfx1030 gfx1100])\" gpu_type=gfx1031 gpu=0")
            .env_var("HSA_OVERRIDE_GFX_VERSION", "10.3.0")
            .with(|i| i.amd.gfx_targets.push(Fact::new("gfx1031".into(), "input line 2")))
            .build(),
        "ENV009" => B::linux()
            .toolkit("nvcc on PATH", "7.5.17", true)
            .with(|i| i.setting.toolkit_installed_said = f("9.1".into(), "input line 19 (prose)"))
            .build(),
        "WIN005" => B::windows().package("tensorflow", "2.12.0").build(),
        "MIS001" => pasted(SmiCudaQuestion, "But nvidia-smi still shows the version of toolkit be 12.2"),
        "MIS002" => B::linux()
            .with(|i| i.setting.renumbered_devices = f("5".into(), "input line 1"))
            .build(),
        "ERR032" => pasted(NvmlNoPermission, "Failed to initialize NVML: Insufficient Permissions"),
        "ERR033" => pasted(ContainerDriverFilesInImage, "mount error: file creation failed: /var/lib/docker/overlay2/x/merged/usr/bin/nvidia-smi: file exists"),
        "ERR034" => pasted(PlatformUnsupported, "vLLM only supports Linux platform (including WSL) and MacOS.Building on win32"),
        "ERR035" => B::linux()
            .driver("565.77", Some("12.7"))
            .torch("2.5.1+cu124", Some("12.4"))
            .error(InsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")
            .build(),
        "ERR062" => jax_on_470("11.6.2"),
        "ERR084" => in_setting(LibcudaMissing, "[h264_nvenc @ 0x5e28c0] Cannot load libcuda.so.1", |i| {
            i.setting.nix = f(true, "input line 3");
        }),
        "ERR085" => in_setting(InitFailed, "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.", |i| {
            i.setting.after_suspend = f(true, "input line 2 (prose)");
        }),
        "ERR066" => in_setting(NoNvidiaDriver, "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx", |i| {
            i.setting.colab = f(true, "input line 1");
        }),
        "ERR064" => B::linux()
            .gpu("NVIDIA GeForce GTX 970")
            .error(OpenvinoGpuPluginFailed, "GeForce GTX 970: invalid vendor type")
            .build(),
        "PLAT009" => gpucompat::ingest::ingest(&[(
            "lspci".into(),
            "2761:00:00.0 3D controller: Microsoft Corporation Device 008e\n".into(),
        )]),
        "HINT001" => mentioning(Topic::Mig, "llama.cpp only detects the first partition of the MIG A100", true),
        "HINT002" => mentioning(Topic::Nvswitch, "nvidia-fabricmanager.service failed", true),
        "HINT003" => B::wsl().error(Other, "Segmentation fault (core dumped)").build(),
        "HINT010" => B::linux().container("docker").error(Other, "Segmentation fault (core dumped)").build(),
        "HINT008" => on(mentioning(Topic::Gpu, "They say the GPU does not appear on screen", true), |i| {
            i.os.kind = f(OsKind::Macos, "input line 1");
        }),
        "HINT009" => on(mentioning(Topic::Gpu, "the GPU is not detected", true), |i| {
            i.amd.gfx_targets.push(Fact::new("gfx1100".into(), "input line 2"));
        }),
        "HINT004" => mentioning(Topic::Onnxruntime, "CUDAExecutionProvider is not in available providers", true),
        "HINT005" => mentioning(Topic::Tensorrt, "trtexec failed to deserialize the engine", true),
        "HINT006" => mentioning(Topic::Cudnn, "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR", true),
        "HINT007" => mentioning(Topic::EnvVar, "after export CUDA_VISIBLE_DEVICES=\"0\" no GPU is detected", true),
        "HINT011" => on(mentioning(Topic::Collective, "Title: NCCL hangs in the case GPUs are linked through PXB or PIX", true), |i| {
            i.gpus.push(Gpu {
                name: f("NVIDIA RTX 6000 Ada Generation".into(), "input line 2"),
                ..Default::default()
            });
        }),
        "ERR067" => pasted(CpuLacksAvx, "time=2024-03-04 level=INFO source=gpu.go:112 msg=\"CPU does not have AVX or AVX2, disabling GPU support.\""),
        "ERR070" => in_setting(CudnnMissing, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory", |i| {
            i.setting.library_on_disk = f("/opt/conda/lib/python3.10/site-packages/torch/lib/libcudnn_ops_infer.so.8".into(), "input line 4");
        }),
        "ERR069" => in_setting(ShmExhausted, "include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-250a7cc850ba9298-0-1-3 (size 9637888)", |i| {
            i.container.runtime = f("docker".into(), "input line 1");
        }),
        "ERR065" => pasted(ToolkitNotFound, "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root."),
        "ERR072" => in_setting(CudaFeatureUnsupported, "nanovdb/cuda/DeviceResource.h:22 CUDA error 801: operation not supported", |i| {
            i.setting.vgpu = f(true, "input line 2");
        }),
        "ERR073" => in_setting(CudaFeatureUnsupported, "RuntimeError: CUDA error encountered at: null_mask.cu:93: 801 cudaErrorNotSupported operation not supported.", |i| {
            i.wsl.is_wsl = f(true, "input line 1");
        }),
        "ERR074" => pasted(PtxasTooOld, "ptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'"),
        "ERR077" => B::linux()
            .driver("580.126.18", Some("13.0"))
            .gpu("NVIDIA GeForce RTX 5060 Ti")
            .error(InsufficientDriver, "CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version")
            .with(|i| i.setting.run_image_cuda = f("12.2".into(), "input line 10"))
            .build(),
        "ERR079" => pasted(InvalidKernelImage, "RuntimeError: Triton Error [CUDA]: device kernel image is invalid"),
        "ERR080" => pasted(EccUncorrectable, "CUDA Error: uncorrectable ECC error encountered"),
        "ERR082" => pasted(NoDevice, "RuntimeError: No CUDA GPUs are available"),
        "ERR083" => pasted(GpuFellOffBus, "NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus."),
        "ERR089" => pasted(LaunchTimeout, "RuntimeError: CUDA error: the launch timed out and was terminated"),
        "ERR090" => pasted(NvrtcBuiltinsMissing, "nvrtc: error: failed to open libnvrtc-builtins.so.11.1."),
        "PLAT010" => amd(B::wsl()).error(HipError, "RuntimeError: No HIP GPUs are available").build(),
        "CTR007" => amd(B::linux().container("docker")).error(HipError, "hipErrorNoDevice: no ROCm-capable device is detected").build(),
        "ERR088" => pasted(PciResourceUnassigned, "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:"),
        "ERR081" => pasted(LibcudaSymbolMissing, "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 500: named symbol not found"),
        "ERR075" => pasted(MpsUnsupported, "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. Please use float32 instead"),
        "ERR076" => pasted(XpuNotRegistered, " PyTorch is not linked with support for xpu devices"),
        "ERR071" => pasted(XlaLibdeviceMissing, "W tensorflow/core/framework/op_kernel.cc:1830] OP_REQUIRES failed at xla_ops.cc:362 : INTERNAL: libdevice not found at ./libdevice.10.bc"),
        "ERR063" => pasted(PtxasOlderThanGpu, "W external/xla/xla/stream_executor/gpu/asm_compiler.cc:232] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 8.9"),
        "ERR036" => B::linux()
            .package("onnxruntime-gpu", "1.5.1")
            .error(CudnnMissing, "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory")
            .build(),
        "ERR037" => pasted(TritonGpuTooOld, "RuntimeError: Found NVIDIA GeForce GTX 1080 which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.1"),
        "ERR038" => pasted(FrameworkCpuBuild, "No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)"),
        "ERR048" => in_setting(CudaLibraryMissing, "OSError: libcurand.so.10: cannot open shared object file: No such file or directory", |i| {
            i.setting.jetson = f(true, "input line 1");
            i.container.runtime = f("docker".into(), "input line 2");
        }),
        "ERR078" => in_setting(CudaLibraryMissing, "ImportError: libcufft.so.10.0: cannot open shared object file: No such file or directory", |i| {
            i.setting.jetson = f(true, "input line 1");
        }),
        "ERR040" => in_setting(CudaUnavailable, "torch.cuda.is_available() returns False", |i| {
            i.setting.jetson = f(true, "input line 1");
        }),
        // Whisper on the CPU beside a GeForce card and no sign of a driver failure.
        "ERR041" => B(Inventory::new("explain issue.txt"))
            .gpu("NVIDIA GeForce RTX 3060")
            .error(CudaUnavailable, "UserWarning: FP16 is not supported on CPU; using FP32 instead")
            .build(),
        "ERR044" => in_setting(NoNvidiaDriver, "ERROR: Unable to load the kernel module 'nvidia.ko'.", |i| {
            i.os.secure_boot = f(true, "input line 3");
        }),
        "MIS005" => B(Inventory::new("explain issue.txt"))
            .runtime(|r| {
                r.cuda_available = f(false, "input line 6");
                r.cudnn_enabled = f(true, "input line 7");
            })
            .build(),
        "MIS006" => B::linux()
            .torch("1.8.0+cu111", Some("11.1"))
            .error(ToolkitNotFound, "RuntimeError: --cuda_ext was requested, but nvcc was not found.  Are you sure your environment has nvcc available?")
            .build(),
        "MIS004" => B(Inventory::new("explain issue.txt"))
            .with(|i| i.setting.benign_notice = f("W0404 16:40:48.365986 14840 device_context.cc:237] Please NOTE: device: 0, CUDA Capability: 61, Driver API Version: 10.1, Runtime API Version: 10.0".into(), "input line 9"))
            .build(),
        "MIS003" => pasted(HostCudaContainerQuestion, "The reporter has installed CUDA 11.4.0 on the host and wonders whether they can use the CUDA 11.3 Dockerfile to build their container."),
        "ERR060" => pasted(ContainerRequirementUnsatisfied, "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown"),
        "ERR061" => pasted(LoaderPathOverride, "Warning: CUDA runtime library `libcublasLt.so.12` was loaded from a system path, `/opt/cuda/12.6.1/lib64/libcublasLt.so.12`."),
        "ERR059" => in_setting(CudaOsCallFailed, "CUDA error 304 at ggml-cuda.cu:5065: OS call failed or operation not supported on this OS", |i| {
            i.container.runtime = f("docker".into(), "input line 2");
        }),
        "ERR058" => pasted(ToolkitPathMismatch, "nvcc fatal   : Path to libdevice library not specified"),
        "ERR053" => pasted(ModuleBuildFailed, "Error! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)"),
        "ERR054" => pasted(GspFirmwareMismatch, "NVRM: GPU0 _kgspFwContainerVerifyVersion: GSP firmware image version mismatch: 595.71.05 != 595.58.03"),
        "ERR055" => pasted(GspInitFailed, "NVRM kgspInitRm_IMPL: missing NVDEC0 engine, cannot initialize GSP-RM"),
        "ERR056" => pasted(OpenModuleDatacenterOnly, "Open nvidia.ko is only ready for use on Data Center GPUs."),
        "ERR057" => pasted(MigPendingReset, "Warning: MIG mode is in pending disable state for GPU 00000000:C1:00.0:In use by another client"),
        "ERR052" => pasted(TorchNotCompiledWithXpu, "AssertionError: Torch not compiled with XPU enabled"),
        "ERR051" => pasted(ExtensionNotBuilt, "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!"),
        "ERR050" => pasted(CudaLibraryMissing, "pygpu.gpuarray.GpuArrayException: b'Could not load \"nvrtc64_70.dll\": The specified module could not be found.\\r\\n'"),
        "ERR049" => pasted(MigStrategyMismatch, "panic: At least one device with migEnabled=true was not configured correctly: More than one MIG device type present on node"),
        "ERR047" => pasted(StubLibrary, "AttributeError: /opt/cuda-12.1/lib64/stubs/libcuda.so: undefined symbol: _undef"),
        "ERR045" => pasted(NvvmMissing, "error while loading shared libraries: libnvvm.so.4: cannot open shared object file: No such file or directory"),
        "ERR046" => B(Inventory::new("explain issue.txt"))
            .package("onnxruntime-gpu", "1.9.0")
            .error(CudaUnavailable, "When the reporter runs the detection model only the CPU is used.")
            .build(),
        "ERR043" => pasted(VgpuUnlicensed, "        License Status                    : Unlicensed (Restricted)"),
        "ERR068" => in_setting(InitFailed, "cudaGetDeviceCount returned 30", |i| {
            i.container.runtime = f("lxc".into(), "input line 1");
            i.nvidia.smi_ok = f(true, "input line 3");
        }),
        "ERR042" => in_setting(NoNvidiaDriver, "bash: nvidia-smi: command not found", |i| {
            i.container.runtime = f("docker".into(), "input line 1");
        }),
        "ERR039" => pasted(CudaPathIsBin, "FileNotFoundError: [WinError 2] The system cannot find the file specified: 'C:\\\\Program Files\\\\NVIDIA GPU Computing Toolkit\\\\CUDA\\\\v10.2\\\\bin\\\\bin'"),
        other => panic!("no firing inventory for {other}"),
    }
}

pub fn amd(b: B) -> B {
    b.with(|i| {
        i.pci.push(PciDevice {
            address: "0000:03:00.0".into(),
            vendor: GpuVendor::Amd,
            vendor_id: "0x1002".into(),
            device_id: "0x744c".into(),
            class: "0x030000".into(),
            driver: Some("amdgpu".into()),
            name: None,
            source: "/sys/bus/pci/devices/0000:03:00.0".into(),
            vram_mib: None,
        });
        i.amd.kfd_present = f(true, "/dev/kfd");
        i.amd.amdgpu_loaded = f(true, "/sys/module/amdgpu");
    })
}

/// An inventory close to the firing one that must keep the rule quiet.
pub fn near_miss(code: &str) -> Inventory {
    near_miss_first(code).unwrap_or_else(|| near_miss_rest(code))
}

/// The first half of [`near_miss`]'s rules. Split in two, called one after the
/// other, so no test thread holds both halves' stack frames at once: one
/// match over every rule is too deep for a debug build's 2 MiB test stack.
fn near_miss_first(code: &str) -> Option<Inventory> {
    use ErrorKind::*;
    Some(match code {
        "DRV001" => B::linux().driver("550.54.14", Some("12.4")).build(),
        "DRV002" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .build(),
        "DRV003" => B::linux().driver("535.104.05", Some("12.2")).build(),
        "DRV004" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .pci_nvidia("0x2330", Some("nvidia"))
            .build(),
        "DRV006" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .build(),
        "DRV008" => proprietary_module_on("NVIDIA GeForce RTX 4090"),
        "DRV009" => B::linux().driver("580.95.05", Some("13.0")).build(),
        "DRV007" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .build(),
        "DRV005" => B::linux()
            .driver("560.35.03", Some("12.6"))
            .gpu("NVIDIA GeForce RTX 4090")
            .build(),
        "RUN001" | "RUN002" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        "RUN003" => B::linux()
            .driver("530.30.02", Some("12.1"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        // Several toolkits and none selected: the newer one builds nothing.
        "RUN004" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 3090")
            .toolkit("/usr/local/cuda-12.4", "12.4.1", true)
            .toolkit("/usr/local/cuda-12.8", "12.8.0", true)
            .build(),
        "ARCH001" | "ARCH002" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .torch("2.5.1+cu124", Some("12.4"))
            .torch_arch("sm_86;sm_90")
            .build(),
        // A GPU every current branch drives: the missing driver is another story.
        "ARCH005" => B::linux()
            .gpu("NVIDIA GeForce RTX 3090")
            .error(SmiNoDriver, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.")
            .build(),
        "ARCH003" => B::linux()
            .driver("580.65.06", Some("13.0"))
            .gpu("NVIDIA GeForce GTX 1080")
            .build(),
        "ARCH004" => B::linux()
            .driver("580.65.06", Some("13.0"))
            .gpu("NVIDIA GeForce GTX 1080")
            .torch("2.10.0+cu126", Some("12.6"))
            .build(),
        "WHL001" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        "WHL002" => amd(B::linux()).torch("2.5.1+rocm6.2", None).build(),
        "WHL003" => amd(B::linux())
            .torch("2.5.1+rocm6.2", None)
            .with(|i| i.amd.rocm_version = f("6.2.0".into(), "/opt/rocm/.info/version"))
            .build(),
        "PLAT001" => B::macos().torch("2.5.1", None).build(),
        // The same error outside WSL is the no-driver family's.
        "PLAT008" => B::linux().error(NoDevice, "No devices were found").build(),
        "PLAT002" | "PLAT003" => B::wsl()
            .driver("552.22", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .build(),
        "PLAT004" => B::wsl()
            .driver("560.94", Some("12.6"))
            .gpu("NVIDIA GeForce RTX 4090")
            .torch("2.5.1+cu124", Some("12.4"))
            .build(),
        "PLAT005" => B::windows()
            .driver("552.22", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .build(),
        "PLAT006" => B::windows()
            .driver("552.22", Some("12.4"))
            .gpu("NVIDIA A100 80GB PCIe")
            .with(|i| i.gpus[0].driver_model = f(DriverModel::Tcc, "nvidia-smi"))
            .build(),
        "PLAT007" => B(Inventory::new("explain collect_env.txt")).build(),
        "CTR001" => B::linux()
            .container("docker")
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .env_var("NVIDIA_VISIBLE_DEVICES", "all")
            .torch("2.5.1+cu121", Some("12.1"))
            .build(),
        // The same error with the node's driver in sight: the driver is what is old.
        // A GPU at or above the application's floor.
        // A Turing GPU gets every current branch: a driver update fixes it.
        "ARCH008" => B::linux()
            .gpu("NVIDIA GeForce RTX 2060")
            .error(DriverTooOld, "[h264_nvenc @ 0x559c0662ffc0] The minimum required Nvidia driver for nvenc is 520.56.06 or newer")
            .build(),
        // CUDA 11.8 is the first nvcc with sm_89.
        "ARCH007" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .gpu("NVIDIA GeForce RTX 4090")
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .build(),
        "ARCH006" => B::linux()
            .gpu("NVIDIA GeForce RTX 3090")
            .error(CudaUnavailable, "ollama can't find my gpu and uses the cpu")
            .with(|i| i.setting.app = f("ollama".into(), "input line 1"))
            .build(),
        "CTR004" => B::linux()
            .driver("470.82.01", None)
            .error(InsufficientDriver, "Failed to allocate device vector A (error code CUDA driver version is insufficient for CUDA runtime version)!")
            .with(|i| i.setting.k3s = f("k3s".into(), "input line 3"))
            .build(),
        // The image is tagged for the host's own L4T release.
        "CTR003" => B::linux()
            .with(|i| {
                i.setting.l4t_host = f(36, "input line 1");
                i.setting.l4t_image = f("dustynv/l4t-ml:r36.2.0".into(), "input line 3");
                i.setting.l4t_image_release = f(36, "input line 3");
            })
            .build(),
        // The image is older than the host's release: CTR003's.
        "CTR005" => B::linux()
            .with(|i| {
                i.setting.l4t_host = f(36, "input line 1");
                i.setting.l4t_image = f("dustynv/l4t-ml:r35.4.1".into(), "input line 3");
                i.setting.l4t_image_release = f(35, "input line 3");
            })
            .build(),
        "CTR002" => B::linux()
            .container("docker")
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .env_var("CUDA_VERSION", "12.2.2")
            .env_var(
                "NVIDIA_REQUIRE_CUDA",
                "cuda>=12.2 brand=tesla,driver>=470,driver<471",
            )
            .build(),
        "ENV001" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .env_var("CUDA_VISIBLE_DEVICES", "0")
            .build(),
        "ENV002" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-12.1", "12.1.105", true)
            .env_var(
                "LD_LIBRARY_PATH",
                "/usr/local/cuda-12.1/lib64:/usr/local/cuda-11.8/lib64",
            )
            .build(),
        "ENV003" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-12.1", "12.1.105", true)
            .env_var("CUDA_HOME", "/usr/local/cuda-12.1")
            .build(),
        "LIB001" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .package("onnxruntime-gpu", "1.20.1")
            .framework("onnxruntime", "1.20.1", Some("12.2"), None)
            .package("nvidia-cudnn-cu12", "9.1.0.70")
            .package("nvidia-cuda-runtime-cu12", "12.4.127")
            .build(),
        "LIB002" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .torch("2.5.1+cu124", Some("12.4"))
            .package("tensorrt-cu12", "10.0.1")
            .build(),
        "LIB003" => B::linux()
            .with(|i| {
                i.libraries.tensorrt = vec![lib(
                    "/usr/lib/x86_64-linux-gnu/libnvinfer.so.10.0.1",
                    "10.0.1",
                )]
            })
            .build(),
        "LIB004" => B::linux().gpu("NVIDIA GeForce RTX 4090").build(),
        "LIB005" => B::linux().package("onnxruntime-gpu", "1.20.1").build(),
        "LIB006" => B::linux()
            .driver("550.54.14", Some("12.4"))
            .package("onnxruntime-gpu", "1.20.1")
            .package("nvidia-cuda-runtime-cu12", "12.4.127")
            .package("nvidia-cudnn-cu12", "9.1.0.70")
            .build(),
        "LIB007" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .toolkit("/usr/local/cuda-12.1", "12.1.105", true)
            .build(),
        "LIB008" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .torch("2.5.1+cu121", Some("12.1"))
            .package("nvidia-cudnn-cu12", "9.1.0.70")
            .build(),
        "LIB009" => B::linux()
            .toolkit("/usr/local/cuda-11.8", "11.8.89", true)
            .package("jaxlib", "0.4.6+cuda11.cudnn82")
            .with(|i| i.libraries.cudnn = vec![cudnn_pkg("8.8.1.3", "11.8")])
            .build(),
        // TensorFlow 2.4 (CUDA 11.0) beside CUDA 11.2: the same library names.
        "LIB010" => B::linux()
            .toolkit("/usr/local/cuda-11.2", "11.2.152", true)
            .package("tensorflow", "2.4.0")
            .framework("tensorflow", "2.4.0", None, None)
            .build(),
        "FAB001" => h100_hgx("535.104.05")
            .with(|i| {
                i.fabric.fabric_manager_installed = f(true, "systemctl");
                i.fabric.fabric_manager_running = f(true, "systemctl");
                i.fabric.fabric_manager_version =
                    f("535.104.05".parse().unwrap(), "nv-fabricmanager --version");
            })
            .build(),
        "MIG001" => mig_a100("535.104.05", None, false),
        "MIG002" => mig_a100("535.104.05", Some(2), true),
        "MAC001" => B::macos()
            .torch("2.5.1", None)
            .with(|i| {
                i.apple.apple_silicon = f(true, "sysctl hw.optional.arm64");
                i.python[0].arch = f(
                    "arm64 x86_64".into(),
                    "/Library/Frameworks/Python.framework/Versions/3.12/bin/python3.12",
                );
            })
            .build(),
        "MAC002" => B::macos().torch("1.12.0", None).build(),
        "MAC003" => B::macos()
            .torch("2.2.2", None)
            .with(|i| {
                i.os.version_id = f(
                    "12.3".into(),
                    "/System/Library/CoreServices/SystemVersion.plist",
                )
            })
            .build(),
        "WIN001" => B::windows()
            .torch("2.4.0+cu124", Some("12.4"))
            .with(|i| {
                i.windows.vc_runtime.push(FileCheck {
                    name: "msvcp140.dll".into(),
                    path: "/Windows/System32/msvcp140.dll".into(),
                    present: true,
                })
            })
            .build(),
        "WIN002" => B::windows()
            .with(|i| {
                i.windows.cuda_path_vars.push(PathVar {
                    var: "CUDA_PATH".into(),
                    value: r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4".into(),
                    exists: true,
                })
            })
            .build(),
        "WIN003" => B::windows()
            .torch("2.5.1", None)
            .with(|i| i.windows.long_paths_enabled = f(true, "reg query LongPathsEnabled"))
            .build(),
        "WIN004" => B::windows()
            .driver("566.36", Some("12.7"))
            .gpu("NVIDIA GeForce RTX 4060 Ti")
            .with(|i| {
                i.windows.wsl_distros.push(WslDistro {
                    name: "Ubuntu".into(),
                    state: "Running".into(),
                    version: 2,
                    default: true,
                    source: "wsl.exe --list --verbose".into(),
                })
            })
            .build(),
        "MIG003" => mig_a100("535.104.05", Some(1), true),
        _ => return None,
    })
}

/// The second half of [`near_miss`]'s rules.
fn near_miss_rest(code: &str) -> Inventory {
    use ErrorKind::*;
    match code {
        // An observed error next to the fact that explains it: the fact rule speaks, not ERRnnn.
        "ERR001" => with_error(firing("DRV001"), NvmlDriverLibraryMismatch),
        "ERR002" => with_error(firing("RUN001"), InsufficientDriver),
        "ERR003" => with_error(firing("CTR002"), CompatNotSupported),
        "ERR004" => with_error(firing("ARCH001"), NoKernelImage),
        "ERR005" => with_error(firing("WHL001"), TorchNotCompiledWithCuda),
        "ERR006" => with_error(firing("DRV002"), SmiNoDriver),
        "ERR007" => with_error(firing("FAB001"), SystemNotReady),
        "ERR008" => with_error(firing("LIB001"), CudnnMissing),
        "ERR009" => with_error(firing("LIB005"), OrtCudaProviderFailed),
        "ERR010" => with_error(firing("CTR001"), ContainerNoGpuRuntime),
        // With the host driver and the image's requirement in sight CTR002 names it.
        "ERR060" => with_error(firing("CTR002"), ContainerRequirementUnsatisfied),
        // A library that failed to load is another message's.
        "ERR061" => pasted(CudaLibraryMissing, "OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory"),
        "ERR011" => with_error(firing("PLAT003"), WslLibcuda),
        "ERR012" => with_error(firing("WHL002"), HipError),
        "ERR014" => with_error(firing("ENV001"), NoVisibleDevices),
        "ERR015" => with_error(firing("LIB002"), TrtEngineIncompatible),
        "ERR016" => with_error(firing("ENV003"), ToolkitTorchMismatch),
        "ERR017" => with_error(firing("LIB008"), CudaLibraryMissing),
        // No fact rule supersedes these: without the error they stay quiet.
        "ERR013" | "ERR018" => pasted(Other, "something else"),
        "EXT001" => ext_fixture("xformers-0.0.28.post3-torch-2.5.1-cu124"),
        "EXT002" => ext_fixture("flash-attn2-a100-near-miss"),
        "EXT003" => ext_fixture("flash-attn-nvcc-117-torch-cu117-near-miss"),
        "EXT004" => ext_fixture("torch-cuda-arch-list-covers-gpu"),
        // torch itself has no kernel for the GPU: ARCH001's case, not another package's.
        "EXT005" => B::linux()
            .driver("570.124.04", Some("12.8"))
            .gpu("NVIDIA GeForce RTX 5090")
            .torch("2.5.1+cu124", Some("12.4"))
            .error(NoKernelImage, "RuntimeError: CUDA error: no kernel image is available for execution on the device")
            .build(),
        "ERR019" => with_error(firing("PLAT001"), TorchNotCompiledWithCuda),
        "ERR020" => with_error(firing("WHL002"), InsufficientDriver),
        "ERR021" => {
            let mut inv = with_error(firing("CTR001"), NoDevice);
            inv.setting.docker_run_gpus = f(false, "input line 2");
            inv
        }
        "ERR022" => B(firing("CTR001"))
            .error(InitFailed, "Failed to initialize NVML: Unknown Error")
            .build(),
        "ERR023" => with_error(firing("PLAT003"), LibcudaMissing),
        "ERR024" => with_error(firing("MIG002"), NoDevice),
        "ERR025" => with_error(firing("ENV001"), NoDevice),
        "ERR027" => with_error(firing("ENV002"), LibraryShadowed),
        "ERR028" => with_error(firing("WHL001"), CudaUnavailable),
        "ERR029" => with_error(firing("WHL001"), ExtensionMismatch),
        "ERR030" => with_error(firing("ARCH003"), GpuDroppedByDriver),
        "ERR026" | "ERR031" => pasted(Other, "something else"),
        // A probed machine that lacks the CUDA libraries: LIB006 names which, with the error.
        "ERR046" => B::linux()
            .package("onnxruntime-gpu", "1.17.1")
            .error(CudaUnavailable, "When the reporter runs the detection model only the CPU is used.")
            .build(),
        // nvidia-smi's header question is MIS001's.
        // The notice beside a real failure: the failure is the story.
        // A toolkit is in sight: the build's search is the question (ERR065), not the wheel.
        "MIS006" => B::linux()
            .torch("1.8.0+cu111", Some("11.1"))
            .toolkit("/usr/local/cuda-11.1", "11.1.105", true)
            .error(ToolkitNotFound, "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.")
            .build(),
        // A cuDNN that fails to load is the story, whatever the switch says.
        "MIS005" => B(Inventory::new("explain issue.txt"))
            .runtime(|r| r.cudnn_enabled = f(true, "input line 7"))
            .error(CudnnMissing, "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory")
            .build(),
        "MIS004" => in_setting(NoDevice, "RuntimeError: CUDA error: no CUDA-capable device is detected", |i| {
            i.setting.benign_notice = f("CUDA lazy loading is not enabled.".into(), "input line 2");
        }),
        "MIS003" => pasted(SmiCudaQuestion, "But nvidia-smi still shows the version of toolkit be 12.2"),
        // Outside a container error 304 names no container limit.
        "ERR059" => pasted(CudaOsCallFailed, "CUDA error 304 at ggml-cuda.cu:5065: OS call failed or operation not supported on this OS"),
        // nvcc refusing an architecture is not a path problem.
        "ERR058" => pasted(ArchNotCompiled, "nvcc fatal   : Unsupported gpu architecture 'compute_86'"),
        // A module that built and did not load is another story.
        "ERR053" => pasted(NoNvidiaDriver, "ERROR: Unable to load the kernel module 'nvidia.ko'."),
        // A module and firmware of one release that fail for another reason.
        "ERR054" | "ERR055" | "ERR056" => pasted(InitFailed, "NVRM: GPU 0000:03:00.0: RmInitAdapter failed! (0x24:0x72:1603)"),
        // MIG mode applied, no reset waiting: an enumeration problem is ERR024's.
        "ERR057" => pasted(NoDevice, "RuntimeError: No CUDA GPUs are available"),
        // The CUDA message is ERR005's.
        "ERR052" => pasted(TorchNotCompiledWithCuda, "AssertionError: Torch not compiled with CUDA enabled"),
        // On a Mac the CPU fallback is all there is.
        "ERR051" => B::macos()
            .error(ExtensionNotBuilt, "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!")
            .build(),
        // The Linux library: the loader path is another story.
        "ERR050" => pasted(CudaLibraryMissing, "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory"),
        // A device plugin error of another kind.
        "ERR049" => pasted(ContainerNoGpuRuntime, "Error: failed to start container: could not select device driver \"\" with capabilities: [[gpu]]"),
        // The driver's own libcuda missing is no stub on the path.
        "ERR047" => pasted(LibcudaMissing, "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"),
        // Another CUDA library missing is not libNVVM's folder.
        "ERR045" => pasted(CudaLibraryMissing, "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory"),
        // Secure Boot off: the module failed for another reason.
        "ERR044" => in_setting(NoNvidiaDriver, "ERROR: Unable to load the kernel module 'nvidia.ko'.", |i| {
            i.os.secure_boot = f(false, "input line 3");
        }),
        // A licensed vGPU, as nvidia-smi -q prints it.
        "ERR043" => gpucompat::ingest::ingest(&[(
            "explain issue.txt".to_string(),
            "    vGPU Software Licensed Product\n        Product Name                      : NVIDIA Virtual Compute Server\n        License Status                    : Licensed (Expiry: 2026-12-31 0:0:0 GMT)\n".to_string(),
        )]),
        "ENV004" => B::linux()
            .with(|i| i.setting.visible_devices_set_late = f(false, "input line 6"))
            .build(),
        // conda-forge's CUDA build of the same release.
        "WHL004" => gpucompat::ingest::ingest(&[(
            "explain issue.txt".to_string(),
            "pytorch                   2.1.0           cuda120_py311h25b6552_300    conda-forge\n".to_string(),
        )]),
        // The real directory, written out: the library is missing for another reason.
        "ENV007" => B::linux()
            .error(CudaLibraryMissing, "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory")
            .env_var("LD_LIBRARY_PATH", "$LD_LIBRARY_PATH:/home/ubuntu/TensorRT-8.2.1.8/lib")
            .build(),
        // CUDA_DEVICE_ORDER=PCI_BUS_ID already set: the numbers agree, the rest is elsewhere.
        "ENV006" => B::linux()
            .with(|i| i.setting.device_order_differs = f(true, "input line 1"))
            .env_var("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
            .build(),
        "ENV005" => B::linux()
            .error(CudnnVersionMismatch, "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked against (8, 0, 3)")
            .env_var("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
            .build(),
        // The spec gives the containers /dev/nvidia-uvm.
        "CTR006" => B::linux()
            .with(|i| i.setting.cdi_spec_uvm = f(true, "input line 4"))
            .build(),
        // One CUDA release throughout.
        "LIB011" => B::linux()
            .package("cuda-version", "12.4")
            .package("cuda-nvcc", "12.4.131")
            .build(),
        // In a container the runtime reads it.
        "ENV011" => B::linux()
            .env_var("NVIDIA_VISIBLE_DEVICES", "1,2")
            .with(|i| i.container.runtime = f("docker".into(), "input line 1"))
            .build(),
        // An exported selector reaches the program.
        // Running out of memory is the job's size, not the allocator's settings.
        // A watchdog nobody mentions: a hung nvidia-smi is no kernel stopped by one.
        "ERR089" => pasted(Timeout, "nvidia-smi did not answer within 10 s"),
        "ERR090" => pasted(CudaLibraryMissing, "OSError: libnvrtc.so.11.2: cannot open shared object file: No such file or directory"),
        // ROCm on native Linux: no WSL in the way.
        "PLAT010" => amd(B::linux()).error(HipError, "RuntimeError: No HIP GPUs are available").build(),
        // An AMD machine outside any container.
        "CTR007" => amd(B::linux()).error(HipError, "hipErrorNoDevice: no ROCm-capable device is detected").build(),
        "ERR087" => pasted(OutOfMemory, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"),
        // libnvinfer itself missing: which TensorRT is installed is the question (ERR015).
        "ERR086" => pasted(CudaLibraryMissing, "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory"),
        // Only the NVIDIA container runtime's driver directories are listed: no other copy is ahead.
        "ENV014" => B::linux()
            .error(LibraryShadowed, "4709:\tfile=libnvJitLink.so.12 [0];  generating link map")
            .env_var("LD_LIBRARY_PATH", "/usr/local/nvidia/lib:/usr/local/nvidia/lib64")
            .build(),
        // No CUDA_VISIBLE_DEVICES beside the launcher's own choice.
        "ENV015" => B::linux()
            .with(|i| i.setting.deepspeed_picks_gpus = f("deepspeed --num_gpus 2 train.py".into(), "input line 3"))
            .build(),
        // The wheel is of another TensorRT major than the library asked for: a release mismatch (ERR015).
        "ENV013" => B::linux()
            .framework("tensorrt", "10.0.1", None, None)
            .error(CudaLibraryMissing, "Failed to load library libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.8: cannot open shared object file: No such file or directory")
            .build(),
        // Beside a failure the usage figure is a symptom of it, not a question.
        // CUDA_VISIBLE_DEVICES narrows the GPUs: the variable is the cause (ERR014).
        "MIS008" => B::linux()
            .error(NoVisibleDevices, "RuntimeError: CUDA error: invalid device ordinal")
            .env_var("CUDA_VISIBLE_DEVICES", "2,3")
            .with(|i| i.setting.device_index = f("3".into(), "input line 2"))
            .build(),
        "MIS007" => B(Inventory::new("explain issue.txt"))
            .error(UsageGraphQuestion, "GPU usage jumps briefly then drops to 0% and the model falls back to CPU.")
            .error(NoDevice, "RuntimeError: No CUDA GPUs are available")
            .build(),
        "ENV012" => B::linux().env_var("CUDA_VISIBLE_DEVICES", "3").build(),
        // The override is in effect: the program reports the target it stands for.
        "ENV010" => B::linux()
            .error(HipError, "rocBLAS error: Cannot read TensileLibrary.dat: Illegal seek for GPU arch : gfx1030")
            .env_var("HSA_OVERRIDE_GFX_VERSION", "10.3.0")
            .with(|i| i.amd.gfx_targets.push(Fact::new("gfx1030".into(), "input line 2")))
            .build(),
        // The nvcc shown is the toolkit the report installed.
        "ENV009" => B::linux()
            .toolkit("nvcc on PATH", "9.1.85", true)
            .with(|i| i.setting.toolkit_installed_said = f("9.1".into(), "input line 19 (prose)"))
            .build(),
        // The environment's lib directory is on the loader path: the cause is elsewhere.
        "ENV008" => tf_with_conda_libs()
            .env_var("LD_LIBRARY_PATH", "/home/me/miniconda3/envs/tf/lib")
            .build(),
        "WIN005" => B::windows().package("tensorflow", "2.10.1").build(),
        "MIS001" => B::linux().driver("535.104.05", Some("12.2")).toolkit("/usr/local/cuda-12.2", "12.2.140", true).build(),
        "MIS002" => B::linux().env_var("CUDA_VISIBLE_DEVICES", "0").build(),
        "ERR036" => with_error(firing("LIB006"), CudnnMissing),
        // A toolkit the driver supports: the GPU or the build is the suspect (ERR004).
        "ERR062" => jax_on_470("11.4.2"),
        // The same failure with no NVIDIA GPU in sight is the Intel GPU's own.
        // Colab with its T4 in sight: the driver is there, something else failed.
        // Another initialization failure after a suspend (no device) is not the lost UVM state.
        "ERR085" => in_setting(NoDevice, "RuntimeError: No CUDA GPUs are available", |i| {
            i.setting.after_suspend = f(true, "input line 2 (prose)");
        }),
        // In a container the libraries come from the container toolkit's mounts.
        "ERR084" => in_setting(LibcudaMissing, "[h264_nvenc @ 0x5e28c0] Cannot load libcuda.so.1", |i| {
            i.setting.nix = f(true, "input line 3");
            i.container.runtime = f("docker".into(), "input line 2");
        }),
        "ERR066" => B::linux()
            .gpu("Tesla T4")
            .error(NoDevice, "RuntimeError: No CUDA GPUs are available")
            .with(|i| i.setting.colab = f(true, "input line 1"))
            .build(),
        "ERR064" => pasted(OpenvinoGpuPluginFailed, "[GPU] Couldn't find a suitable kernel for result:sink_port_0 params raw string: F32_BFYX"),
        // A Hyper-V VM's own display adapter is no WSL2 GPU.
        "PLAT009" => gpucompat::ingest::ingest(&[(
            "lspci".into(),
            "00:08.0 VGA compatible controller: Microsoft Corporation Hyper-V virtual VGA\n".into(),
        )]),
        // The same load failure with no word on ptxas: nothing names the toolkit.
        // A line that names the subject without a failure: nothing to hint at.
        "HINT001" => mentioning(Topic::Mig, "MIG M.: Disabled", false),
        "HINT002" => mentioning(Topic::Nvswitch, "Fabric Manager state: Completed", false),
        // WSL2 and nothing wrong in sight.
        "HINT003" => B::wsl().build(),
        // A container where nothing failed: no hint.
        "HINT010" => B::linux().container("docker").build(),
        // A Mac whose report names the GPU in no failing line.
        "HINT008" => on(mentioning(Topic::Gpu, "the GPU is an Apple M2 Max", false), |i| {
            i.os.kind = f(OsKind::Macos, "input line 1");
        }),
        // An NVIDIA GPU is named beside the AMD one: the failure may be either's.
        "HINT009" => on(mentioning(Topic::Gpu, "the GPU is not detected", true), |i| {
            i.amd.gfx_targets.push(Fact::new("gfx1100".into(), "input line 2"));
            i.gpus.push(Gpu {
                name: f("NVIDIA GeForce RTX 3060".into(), "input line 3"),
                ..Default::default()
            });
        }),
        "HINT004" => mentioning(Topic::Onnxruntime, "onnxruntime-gpu 1.20.1", false),
        "HINT005" => mentioning(Topic::Tensorrt, "TF-TRT Warning: Could not find TensorRT", false),
        "HINT006" => mentioning(Topic::Cudnn, "cuDNN version: 9.1.0", false),
        // NCCL named in a line that reads as no failure.
        "HINT011" => on(mentioning(Topic::Collective, "NCCL INFO comm 0x23ba7ea0 rank 0 nranks 2 - Init COMPLETE", false), |i| {
            i.gpus.push(Gpu {
                name: f("NVIDIA RTX 6000 Ada Generation".into(), "input line 2"),
                ..Default::default()
            });
        }),
        // A loud finding is there: the hint stays quiet beside it.
        "HINT007" => B::linux()
            .driver("535.104.05", Some("12.2"))
            .gpu("NVIDIA GeForce RTX 3090")
            .torch("2.5.1+cpu", None)
            .with(|i| {
                i.setting.mentions.push(Mention {
                    topic: Topic::EnvVar,
                    text: "CUDA_VISIBLE_DEVICES=0 does not work".into(),
                    source: "input line 1".into(),
                    failing: true,
                })
            })
            .build(),
        "ERR067" => pasted(Other, "msg=\"CPU has AVX2\""),
        // The file on disk is another library than the one that failed.
        "ERR070" => in_setting(CudnnMissing, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory", |i| {
            i.setting.library_on_disk = f("/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9".into(), "input line 4");
        }),
        // NCCL's optional network plugin missing is no shared-memory failure.
        "ERR069" => pasted(Other, "NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory"),
        // The same message on a Mac: no toolkit exists there, ERR019 says so.
        // CUDA_HOME set to a list: ENV007 names it and carries the failed build.
        "ERR065" => B::linux()
            .error(ToolkitNotFound, "unable to execute '/usr/local/cuda:/bin/nvcc': No such file or directory")
            .env_var("CUDA_HOME", "/usr/local/cuda:")
            .build(),
        // The same refusal on native Linux is ERR072's, not WSL's.
        "ERR073" => pasted(CudaFeatureUnsupported, "RuntimeError: CUDA error encountered at: null_mask.cu:93: 801 cudaErrorNotSupported operation not supported."),
        // An out-of-memory error names no feature the device lacks.
        "ERR072" => in_setting(OutOfMemory, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB", |i| {
            i.setting.vgpu = f(true, "input line 2");
        }),
        // XLA's search list alone is a warning on setups that work.
        // The driver's JIT saying it: the driver, not the toolkit (ERR002).
        "ERR074" => pasted(UnsupportedPtx, "ptxas application ptx input, line 9; fatal   : Unsupported .version 8.5; current version is '8.4'"),
        // An image of a CUDA that knows the GPU: the driver reading (ERR002) stands.
        "ERR077" => B::linux()
            .driver("580.126.18", Some("13.0"))
            .gpu("NVIDIA GeForce RTX 5060 Ti")
            .error(InsufficientDriver, "CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version")
            .with(|i| i.setting.run_image_cuda = f("12.8".into(), "input line 10"))
            .build(),
        // A correctable count in nvidia-smi is no failure.
        "ERR080" => pasted(Other, "Volatile Uncorr. ECC: 0"),
        // 'named symbol not found' while loading a module's kernel on a host: no container's libcuda.
        // The report shows CUDA_VISIBLE_DEVICES: ENV001 names it, with the error.
        "ERR082" => B::linux()
            .env_var("CUDA_VISIBLE_DEVICES", "")
            .error(NoDevice, "RuntimeError: No CUDA GPUs are available")
            .build(),
        // Another Xid (13, a program's fault) is no bus failure.
        "ERR083" => pasted(Other, "NVRM: Xid (PCI:0000:02:00): 13, Graphics Exception: ESR 0x404600=0x80000002"),
        // The driver probed the GPU and failed later: not its memory windows.
        "ERR088" => pasted(InitFailed, "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)"),
        "ERR081" => pasted(InitFailed, "failed to get PTX kernel \"broadcast\" from module: CUDA_ERROR_NOT_FOUND: named symbol not found"),
        // No kernel image at all is ERR004's.
        "ERR079" => pasted(NoKernelImage, "RuntimeError: CUDA error: no kernel image is available for execution on the device"),
        // MPS unavailable altogether is ERR013's.
        "ERR075" => pasted(MpsUnavailable, "MPS not available because the current PyTorch install was not built with MPS enabled."),
        // With torch 2.5 or newer the XPU device is torch's own: ERR052 names the build.
        "ERR076" => B::linux()
            .torch("2.6.0", None)
            .error(XpuNotRegistered, "PyTorch is not linked with support for xpu devices")
            .build(),
        "ERR071" => pasted(Other, "W external/xla/xla/service/gpu/nvptx_compiler.cc:760] Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime failures"),
        "ERR063" => pasted(Other, "INTERNAL: Failed to load PTX text as a module: CUDA_ERROR_INVALID_IMAGE: device kernel image is invalid"),
        "ERR032" | "ERR033" | "ERR034" | "ERR035" | "ERR037" | "ERR039" => pasted(Other, "something else"),
        "ERR038" => with_error(firing("DRV002"), FrameworkCpuBuild),
        // In a container on a Jetson: the container's mounts (ERR048).
        "ERR078" => in_setting(CudaLibraryMissing, "ImportError: libcufft.so.10.0: cannot open shared object file: No such file or directory", |i| {
            i.setting.jetson = f(true, "input line 1");
            i.container.runtime = f("docker".into(), "input line 2");
        }),
        // The same failure on a Jetson outside a container: nothing to mount.
        "ERR048" => in_setting(CudaLibraryMissing, "OSError: libcurand.so.10: cannot open shared object file: No such file or directory", |i| {
            i.setting.jetson = f(true, "input line 1");
        }),
        // NVIDIA's own Jetson build: the wheel is not what is wrong.
        "ERR040" => B::linux()
            .package("torch", "2.0.0+nv23.05")
            .error(CudaUnavailable, "torch.cuda.is_available() returns False")
            .with(|i| i.setting.jetson = f(true, "input line 1"))
            .build(),
        // A container started with a pasted `docker run` without GPUs: CTR001 names it.
        "ERR042" => B(firing("CTR001"))
            .error(NoNvidiaDriver, "bash: nvidia-smi: command not found")
            .build(),
        // A container the facts show started without the NVIDIA runtime: CTR001 names it.
        "ERR068" => B(firing("CTR001"))
            .error(InitFailed, "cudaGetDeviceCount returned 30")
            .build(),
        // The CPU-only torch is known: WHL001 names it, with the error.
        "ERR041" => with_error(firing("WHL001"), CudaUnavailable),
        other => panic!("no near miss for {other}"),
    }
}

/// The inventory of a compiled-extension fixture (tests/fixtures/kb/extensions/NAME.json).
pub fn ext_fixture(name: &str) -> Inventory {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kb/extensions")
        .join(format!("{name}.json"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    serde_json::from_value(v["inventory"].clone()).unwrap()
}

pub fn with_error(mut inv: Inventory, kind: ErrorKind) -> Inventory {
    inv.errors.push(ObservedError {
        kind,
        text: format!("{kind:?} as seen in the log"),
        source: "input line 7".into(),
        code: None,
    });
    inv
}

/// An RTX 4090 on the bus with the nvidia driver bound, the module loaded and
/// the device nodes there, but the driver query failed (with this note) and listed no GPU.
pub fn hung_4090(note: Option<&str>) -> Inventory {
    B::linux()
        .pci_nvidia("0x2684", Some("nvidia"))
        .with(|i| {
            let n = &mut i.nvidia;
            n.kernel_module = f("550.54.14".parse().unwrap(), "/sys/module/nvidia/version");
            n.module_loaded = f(true, "/sys/module/nvidia");
            n.device_nodes = vec![
                DeviceNode {
                    path: "/dev/nvidiactl".into(),
                    readable: true,
                },
                DeviceNode {
                    path: "/dev/nvidia0".into(),
                    readable: true,
                },
            ];
            let q = Fact::new(false, "nvidia-smi");
            n.smi_ok = Some(match note {
                Some(t) => q.with_note(t),
                None => q,
            });
        })
        .build()
}
