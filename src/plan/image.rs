//! Container image references (`nvidia/cuda`, `pytorch/pytorch`, NGC) and
//! what the `cuda_images` table knows about the official CUDA images.
//!
//! Tag scheme (research/frameworks/cuda_images.md, from the generated
//! Dockerfiles of gitlab.com/nvidia/container-images/cuda):
//! `nvidia/cuda:<x.y.z>-<flavor>-<os>`, flavors `base`, `runtime`, `devel`
//! and the cuDNN flavors `cudnn8-*` (to 12.2.2), `cudnn9-*` (12.3.2),
//! `cudnn-*` (from 12.4.1), plus `tensorrt-*` on 13.0.0 ubuntu24.04.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::finding::KbRef;
use crate::kb::tables::CudaImageRow;
use crate::kb::Kb;
use crate::version::CudaVersion;

/// A parsed image reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImageRef {
    pub raw: String,
    /// `nvcr.io`, `docker.io`, ... (None: Docker Hub by default).
    pub registry: Option<String>,
    /// `nvidia/cuda`, `pytorch/pytorch`, `library/ubuntu` is written `ubuntu`.
    pub repository: String,
    pub tag: Option<String>,
    pub digest: Option<String>,
    pub kind: ImageKind,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImageKind {
    /// `nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04`.
    Cuda {
        cuda: Option<CudaVersion>,
        flavor: Option<String>,
        os: Option<String>,
    },
    /// `pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime`.
    Pytorch {
        torch: Option<String>,
        cuda: Option<CudaVersion>,
        cudnn_major: Option<u32>,
        flavor: Option<String>,
    },
    /// `nvcr.io/nvidia/pytorch:24.05-py3`: NVIDIA's PyTorch container (ships
    /// its own torch build and TensorRT; contents not in the knowledge base).
    NgcPytorch { release: Option<String> },
    /// `nvcr.io/nvidia/tensorrt:24.05-py3`.
    NgcTensorrt { release: Option<String> },
    /// `rocm/*` images.
    Rocm,
    /// Anything else (`ubuntu:22.04`, `python:3.12-slim`).
    Other,
}

impl ImageRef {
    pub fn parse(raw: &str) -> ImageRef {
        let raw = raw.trim();
        let (name, digest) = match raw.split_once('@') {
            Some((n, d)) => (n, Some(d.to_string())),
            None => (raw, None),
        };
        // The tag is after the last ':' of the last path component.
        let last_slash = name.rfind('/').map_or(0, |i| i + 1);
        let (path, tag) = match name[last_slash..].rfind(':') {
            Some(i) => (
                &name[..last_slash + i],
                Some(name[last_slash + i + 1..].to_string()),
            ),
            None => (name, None),
        };
        let mut parts: Vec<&str> = path.split('/').collect();
        let registry = match parts.first() {
            Some(first)
                if parts.len() > 1
                    && (first.contains('.') || first.contains(':') || *first == "localhost") =>
            {
                let r = first.to_string();
                parts.remove(0);
                Some(r)
            }
            _ => None,
        };
        let mut repository = parts.join("/");
        if let Some(r) = repository.strip_prefix("library/") {
            repository = r.to_string();
        }
        let repo_l = repository.to_ascii_lowercase();
        let tag_s = tag.as_deref().unwrap_or("");
        let kind = if repo_l == "nvidia/cuda" {
            parse_cuda_tag(tag_s)
        } else if repo_l == "pytorch/pytorch" {
            parse_pytorch_tag(tag_s)
        } else if repo_l == "nvidia/pytorch" && registry.as_deref() == Some("nvcr.io") {
            ImageKind::NgcPytorch {
                release: ngc_release(tag_s),
            }
        } else if repo_l == "nvidia/tensorrt" && registry.as_deref() == Some("nvcr.io") {
            ImageKind::NgcTensorrt {
                release: ngc_release(tag_s),
            }
        } else if repo_l.starts_with("rocm/") {
            ImageKind::Rocm
        } else {
            ImageKind::Other
        };
        ImageRef {
            raw: raw.to_string(),
            registry,
            repository,
            tag,
            digest,
            kind,
        }
    }

    /// The CUDA version the image itself ships, when the tag says.
    pub fn cuda(&self) -> Option<CudaVersion> {
        match &self.kind {
            ImageKind::Cuda { cuda, .. } | ImageKind::Pytorch { cuda, .. } => *cuda,
            _ => None,
        }
    }

    /// Whether the image is one that carries CUDA libraries at all.
    pub fn has_cuda(&self) -> bool {
        matches!(
            self.kind,
            ImageKind::Cuda { .. }
                | ImageKind::Pytorch { .. }
                | ImageKind::NgcPytorch { .. }
                | ImageKind::NgcTensorrt { .. }
        )
    }

    /// Whether the image already contains TensorRT.
    pub fn has_tensorrt(&self) -> bool {
        match &self.kind {
            ImageKind::Cuda { flavor, .. } => {
                flavor.as_deref().is_some_and(|f| f.starts_with("tensorrt"))
            }
            ImageKind::NgcPytorch { .. } | ImageKind::NgcTensorrt { .. } => true,
            _ => false,
        }
    }

    /// Whether the image already contains a torch build.
    pub fn has_torch(&self) -> bool {
        matches!(
            self.kind,
            ImageKind::Pytorch { .. } | ImageKind::NgcPytorch { .. }
        )
    }

    /// Images whose maker ships GPU software: worth a note when the table lacks them.
    pub fn looks_gpu(&self) -> bool {
        self.has_cuda()
            || matches!(self.kind, ImageKind::Rocm)
            || self.registry.as_deref() == Some("nvcr.io")
            || self.repository.starts_with("nvidia/")
    }
}

fn parse_cuda_tag(tag: &str) -> ImageKind {
    // <version>-<flavor...>-<os>; the OS is letters then digits and dots.
    let mut cuda = None;
    let mut flavor = None;
    let mut os = None;
    if let Some((ver, rest)) = tag.split_once('-') {
        cuda = ver
            .parse::<CudaVersion>()
            .ok()
            .filter(|_| ver.contains('.'));
        match rest.rsplit_once('-') {
            Some((fl, o)) if is_os_tag(o) => {
                flavor = Some(fl.to_string());
                os = Some(o.to_string());
            }
            _ if is_os_tag(rest) => os = Some(rest.to_string()),
            _ => flavor = Some(rest.to_string()),
        }
    }
    ImageKind::Cuda { cuda, flavor, os }
}

fn is_os_tag(s: &str) -> bool {
    let letters = s.chars().take_while(|c| c.is_ascii_lowercase()).count();
    letters > 0 && letters < s.len() && s[letters..].chars().all(|c| c.is_ascii_digit() || c == '.')
}

fn parse_pytorch_tag(tag: &str) -> ImageKind {
    // 2.5.1-cuda12.4-cudnn9-runtime
    let parts: Vec<&str> = tag.split('-').collect();
    let torch = parts
        .first()
        .filter(|p| p.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map(|s| s.to_string());
    let cuda = parts
        .iter()
        .find_map(|p| p.strip_prefix("cuda"))
        .and_then(|v| v.parse::<CudaVersion>().ok());
    let cudnn_major = parts
        .iter()
        .find_map(|p| p.strip_prefix("cudnn"))
        .and_then(|v| v.parse::<u32>().ok());
    let flavor = parts
        .last()
        .filter(|p| **p == "runtime" || **p == "devel")
        .map(|s| s.to_string());
    ImageKind::Pytorch {
        torch,
        cuda,
        cudnn_major,
        flavor,
    }
}

fn ngc_release(tag: &str) -> Option<String> {
    let r = tag.split('-').next()?;
    let (yy, mm) = r.split_once('.')?;
    (yy.len() == 2 && mm.len() == 2 && (yy.to_owned() + mm).bytes().all(|b| b.is_ascii_digit()))
        .then(|| r.to_string())
}

// ---------------------------------------------------------------------------
// The cuda_images table
// ---------------------------------------------------------------------------

/// Whether a tag exists according to the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "exists", content = "why", rename_all = "snake_case")]
pub enum Availability {
    Yes,
    No(String),
    Unknown(String),
}

impl Availability {
    pub fn is_yes(&self) -> bool {
        matches!(self, Availability::Yes)
    }
}

/// What the table's free-text note says about flavors missing on some OSes.
#[derive(Debug, Default)]
/// A row's per-OS flavor coverage, from its typed columns.
struct NoteRules {
    /// flavor → OSes without it.
    absent: BTreeMap<String, Vec<String>>,
    /// flavor → the only OSes with it.
    only: BTreeMap<String, Vec<String>>,
    /// flavors whose OS coverage the table does not record.
    unrecorded_flavors: Vec<String>,
    /// OSes whose flavor coverage the table does not record.
    unrecorded_os: Vec<String>,
}

fn note_rules(row: &CudaImageRow) -> NoteRules {
    NoteRules {
        absent: row.flavors_absent_on.clone().unwrap_or_default(),
        only: row.flavors_only_on.clone().unwrap_or_default(),
        unrecorded_flavors: row.flavors_unrecorded.clone().unwrap_or_default(),
        unrecorded_os: row.os_unrecorded.clone().unwrap_or_default(),
    }
}

/// Does `<cuda>-<flavor>-<os>` exist for this row?
pub fn availability(row: &CudaImageRow, flavor: &str, os: &str) -> Availability {
    let v = row.cuda;
    if !row.os.iter().any(|o| o == os) {
        return Availability::No(format!("no {os} images for CUDA {v}"));
    }
    if !row.flavors.iter().any(|f| f == flavor) {
        return Availability::No(format!(
            "no {flavor} flavor for CUDA {v} (flavors: {})",
            row.flavors.join(", ")
        ));
    }
    let rules = note_rules(row);
    if rules
        .absent
        .get(flavor)
        .is_some_and(|l| l.iter().any(|o| o == os))
    {
        return Availability::No(format!("{flavor} is not built for {os} at CUDA {v}"));
    }
    if let Some(only) = rules.only.get(flavor) {
        if !only.iter().any(|o| o == os) {
            return Availability::No(format!(
                "{flavor} is built only for {} at CUDA {v}",
                only.join(", ")
            ));
        }
    }
    if flavor != "base" && rules.unrecorded_os.iter().any(|o| o == os) {
        return Availability::Unknown(format!(
            "the table does not record which flavors exist for {os} at CUDA {v}"
        ));
    }
    if rules.unrecorded_flavors.iter().any(|f| f == flavor) {
        return Availability::Unknown(format!(
            "{flavor} exists for CUDA {v} on some OSes; the table does not record which"
        ));
    }
    Availability::Yes
}

/// The row for an exact image version (`12.4.1`).
pub fn image_row<'a>(kb: &'a Kb, cuda: &CudaVersion) -> Option<&'a CudaImageRow> {
    kb.cuda_images.row.iter().find(|r| r.cuda == *cuda)
}

/// The flavor spelling this row uses for a (runtime|devel, cudnn?) choice.
pub fn flavor_name(row: &CudaImageRow, base: &str, cudnn: bool) -> Option<String> {
    if !cudnn {
        return row.flavors.iter().find(|f| f.as_str() == base).cloned();
    }
    row.flavors
        .iter()
        .find(|f| f.starts_with("cudnn") && f.ends_with(&format!("-{base}")))
        .cloned()
}

/// Facts about one image, as `db image` and `lint` show them.
#[derive(Debug, Clone, Serialize)]
pub struct ImageFacts {
    pub image: ImageRef,
    pub cuda: Option<CudaVersion>,
    /// cuDNN inside the image (cuDNN flavors only).
    pub cudnn: Option<String>,
    /// The image's `NVIDIA_REQUIRE_CUDA`, when the table knows it.
    pub require_cuda: Option<String>,
    pub exists: Availability,
    pub kb: Option<KbRef>,
    pub notes: Vec<String>,
}

impl ImageFacts {
    /// The environment the container toolkit reads (the variables that matter to requirements).
    pub fn env(&self) -> Option<BTreeMap<String, String>> {
        let req = self.require_cuda.clone()?;
        let mut env = BTreeMap::new();
        env.insert("NVIDIA_REQUIRE_CUDA".to_string(), req);
        if let Some(c) = self.cuda {
            env.insert("CUDA_VERSION".to_string(), c.to_string());
        }
        Some(env)
    }
}

pub fn image_facts(kb: &Kb, image: &ImageRef) -> ImageFacts {
    let mut facts = ImageFacts {
        image: image.clone(),
        cuda: image.cuda(),
        cudnn: None,
        require_cuda: None,
        exists: Availability::Unknown("not an nvidia/cuda image".into()),
        kb: None,
        notes: vec![],
    };
    match &image.kind {
        ImageKind::Cuda { cuda, flavor, os } => {
            let Some(cuda) = cuda else {
                facts.exists = Availability::Unknown(format!(
                    "cannot read a CUDA version from the tag {:?}",
                    image.tag.as_deref().unwrap_or("")
                ));
                return facts;
            };
            let Some(row) = image_row(kb, cuda) else {
                facts.exists =
                    Availability::Unknown(format!(
                    "CUDA {cuda} images are not in the knowledge base (cuda_images covers {}–{})",
                    kb.cuda_images.row.first().map_or("?".into(), |r| r.cuda.to_string()),
                    kb.cuda_images.row.last().map_or("?".into(), |r| r.cuda.to_string())
                ));
                return facts;
            };
            facts.kb = Some(row.kb());
            facts.require_cuda = row.require_cuda.clone();
            if row.require_cuda.is_none() {
                facts.notes.push(
                    "NVIDIA_REQUIRE_CUDA of this image is unknown to the knowledge base".into(),
                );
            }
            let fl = flavor.as_deref().unwrap_or("");
            if fl.starts_with("cudnn") {
                facts.cudnn = row.cudnn.clone();
                if row.cudnn.is_none() {
                    facts
                        .notes
                        .push("cuDNN version of this image is unknown".into());
                }
            }
            facts.exists = match (flavor, os) {
                (Some(f), Some(o)) => availability(row, f, o),
                _ => Availability::Unknown("the tag does not name both a flavor and an OS".into()),
            };
            if let Some(n) = &row.note {
                facts.notes.push(format!("table note: {n}"));
            }
        }
        ImageKind::Pytorch { .. } => {
            facts.notes.push(
                "pytorch/pytorch images: CUDA and cuDNN read from the tag; their NVIDIA_REQUIRE_CUDA is not in the knowledge base".into(),
            );
        }
        ImageKind::NgcPytorch { .. } | ImageKind::NgcTensorrt { .. } => {
            facts.notes.push(
                "NGC container: its CUDA, torch and TensorRT versions per release are not in the knowledge base (see the NGC release notes for this tag)".into(),
            );
        }
        ImageKind::Rocm | ImageKind::Other => {}
    }
    facts
}

/// The `python3` a distribution image ships (from each distribution's
/// release notes), used to keep the Dockerfile's interpreter inside the
/// torch release's supported range.
pub fn distro_python(os: &str) -> Option<(&'static str, &'static str)> {
    Some(match os {
        "ubuntu20.04" => ("3.8", "Ubuntu 20.04 release notes: python3 3.8"),
        "ubuntu22.04" => ("3.10", "Ubuntu 22.04 release notes: python3 3.10"),
        "ubuntu24.04" => ("3.12", "Ubuntu 24.04 release notes: python3 3.12"),
        "rockylinux8" | "ubi8" | "oraclelinux8" => {
            ("3.6", "RHEL 8 release notes: default python3 3.6")
        }
        "rockylinux9" | "ubi9" | "oraclelinux9" => {
            ("3.9", "RHEL 9 release notes: default python3 3.9")
        }
        "rockylinux10" | "ubi10" => ("3.12", "RHEL 10 release notes: default python3 3.12"),
        _ => return None,
    })
}

/// The package manager of an OS tag: `apt` for Debian-family, `dnf` for RHEL-family.
pub fn package_manager(os: &str) -> Option<&'static str> {
    if os.starts_with("ubuntu") {
        Some("apt")
    } else if ["rockylinux", "ubi", "oraclelinux"]
        .iter()
        .any(|p| os.starts_with(p))
    {
        Some("dnf")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_references() {
        let r = ImageRef::parse("nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04");
        assert_eq!(
            r.kind,
            ImageKind::Cuda {
                cuda: Some("12.4.1".parse().unwrap()),
                flavor: Some("cudnn-runtime".into()),
                os: Some("ubuntu22.04".into())
            }
        );
        let r = ImageRef::parse("docker.io/nvidia/cuda:11.8.0-base-ubuntu22.04@sha256:abc");
        assert_eq!(r.registry.as_deref(), Some("docker.io"));
        assert_eq!(r.digest.as_deref(), Some("sha256:abc"));
        let r = ImageRef::parse("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime");
        assert!(matches!(
            r.kind,
            ImageKind::Pytorch {
                cudnn_major: Some(9),
                ..
            }
        ));
        assert_eq!(r.cuda(), Some(CudaVersion::new(12, 4)));
        let r = ImageRef::parse("nvcr.io/nvidia/pytorch:24.05-py3");
        assert_eq!(
            r.kind,
            ImageKind::NgcPytorch {
                release: Some("24.05".into())
            }
        );
        let r = ImageRef::parse("localhost:5000/ubuntu:22.04");
        assert_eq!(r.registry.as_deref(), Some("localhost:5000"));
        assert_eq!(r.kind, ImageKind::Other);
        assert_eq!(ImageRef::parse("ubuntu").tag, None);
    }
}
