//! The lab card: what many nodes' cards say together. Identical nodes are
//! grouped (driver, GPUs, OS), the fleet's floor is named (lowest driver,
//! CUDA and compute capability, each with a node that has it), nodes in
//! error and outliers are listed, and the pin resolver finds the newest
//! stack that runs everywhere, or one per group where none does.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::fleet::node::NodeFacts;
use crate::fleet::read::{NodeCard, Rejected};
use crate::kb::{Kb, Semantic};
use crate::plan::hosts::HostSpec;
use crate::plan::resolver::{resolve, Components, Plan, PlanRequest};

pub const LAB_SCHEMA_VERSION: u32 = 1;

/// GPUs of one kind in a node.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct GpuCount {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<String>,
    pub count: usize,
}

/// One fact of a key, as text (for outliers).
type KeyText = fn(&Key) -> String;

/// What makes two nodes identical for scheduling.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    driver: Option<String>,
    gpus: Vec<GpuCount>,
    os: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// 1-based, largest group first.
    pub id: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_max: Option<String>,
    pub gpus: Vec<GpuCount>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    pub nodes: Vec<String>,
}

/// A fleet-wide minimum and one node that has it.
#[derive(Debug, Clone, Serialize)]
pub struct Floor {
    pub value: String,
    pub node: String,
    /// How many nodes are at this value.
    pub nodes_at: usize,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Floors {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver: Option<Floor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_max: Option<Floor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<Floor>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BriefFinding {
    pub code: String,
    pub severity: Severity,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct NodeInError {
    pub node: String,
    pub card: String,
    /// Why the card's check could not see the GPUs, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind: Option<String>,
    pub findings: Vec<BriefFinding>,
}

/// A node whose value differs from what nearly every other node has.
#[derive(Debug, Clone, Serialize)]
pub struct Outlier {
    pub node: String,
    /// `driver`, `gpus` or `os`.
    pub fact: String,
    pub value: String,
    pub usual: String,
    /// Nodes with the usual value.
    pub usual_nodes: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct LabCard {
    pub schema_version: u32,
    pub nodes: usize,
    pub rejected: Vec<Rejected>,
    pub groups: Vec<Group>,
    pub floors: Floors,
    pub errors: Vec<NodeInError>,
    pub outliers: Vec<Outlier>,
    /// True when one stack runs on every group.
    pub common_stack: bool,
    /// The resolver's answer; its hosts are the groups (`group-1`, ...).
    pub plan: Plan,
}

impl LabCard {
    /// 0: every card read, no node in error, a stack for every group;
    /// 1: otherwise.
    pub fn exit_code(&self) -> i32 {
        i32::from(
            !self.rejected.is_empty() || !self.errors.is_empty() || !self.plan.unplaced.is_empty(),
        )
    }
}

fn gpus_of(card: &NodeCard) -> Vec<GpuCount> {
    let mut counts: BTreeMap<(String, Option<String>), usize> = BTreeMap::new();
    for g in &card.inventory.gpus {
        let name = g
            .name
            .as_ref()
            .map(|n| n.value.clone())
            .unwrap_or_else(|| "unnamed GPU".into());
        let cc = g
            .compute_capability
            .as_ref()
            .map(|c| c.value.plain().to_string());
        *counts.entry((name, cc)).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((name, compute_capability), count)| GpuCount {
            name,
            compute_capability,
            count,
        })
        .collect()
}

fn os_of(card: &NodeCard) -> Option<String> {
    let os = &card.inventory.os;
    os.pretty_name
        .as_ref()
        .map(|p| p.value.clone())
        .or_else(|| match (&os.id, &os.version_id) {
            (Some(i), Some(v)) => Some(format!("{} {}", i.value, v.value)),
            (Some(i), None) => Some(i.value.clone()),
            _ => None,
        })
}

fn gpus_text(g: &[GpuCount]) -> String {
    if g.is_empty() {
        return "no GPU".into();
    }
    g.iter()
        .map(|c| format!("{}x {}", c.count, c.name))
        .collect::<Vec<_>>()
        .join(" + ")
}

fn floor<V: Ord + Clone + ToString>(values: &[(Option<V>, &str)]) -> Option<Floor> {
    let lo = values.iter().filter_map(|(v, _)| v.clone()).min()?;
    let at: Vec<&str> = values
        .iter()
        .filter(|(v, _)| v.as_ref() == Some(&lo))
        .map(|(_, n)| *n)
        .collect();
    Some(Floor {
        value: lo.to_string(),
        node: at.first().map(|s| s.to_string()).unwrap_or_default(),
        nodes_at: at.len(),
    })
}

/// Values held by at most 5% of the nodes (at least one) while a single
/// other value is held by more than half of them.
fn outliers(fact: &str, values: &[(String, &str)]) -> Vec<Outlier> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for (v, _) in values {
        *count.entry(v.as_str()).or_default() += 1;
    }
    let Some((&usual, &usual_n)) = count.iter().max_by_key(|(_, n)| **n) else {
        return vec![];
    };
    let n = values.len();
    let rare = (n / 20).max(1);
    if usual_n * 2 <= n {
        return vec![];
    }
    values
        .iter()
        .filter(|(v, _)| v != usual && count[v.as_str()] <= rare)
        .map(|(v, node)| Outlier {
            node: node.to_string(),
            fact: fact.into(),
            value: v.clone(),
            usual: usual.to_string(),
            usual_nodes: usual_n,
        })
        .collect()
}

/// For each card, the index of the first card whose inventory is the same
/// but for the hostname (itself when none is). Nothing a rule or the node
/// facts read depends on the hostname, so such cards share one check.
/// Candidates are only bare cards of the same group key, at most 16 per key.
fn twins(cards: &mut [NodeCard], keys: &[Key]) -> Vec<usize> {
    let names: Vec<_> = cards
        .iter_mut()
        .map(|c| c.inventory.os.hostname.take())
        .collect();
    let mut reps: HashMap<&Key, Vec<usize>> = HashMap::new();
    let mut rep_of: Vec<usize> = (0..cards.len()).collect();
    for (i, key) in keys.iter().enumerate() {
        // A check report keeps its own findings: it is nobody's twin.
        if cards[i].findings.is_some() {
            continue;
        }
        let list = reps.entry(key).or_default();
        match list
            .iter()
            .find(|&&r| cards[r].inventory == cards[i].inventory)
        {
            Some(&r) => rep_of[i] = r,
            None if list.len() < 16 => list.push(i),
            None => {}
        }
    }
    for (c, n) in cards.iter_mut().zip(names) {
        c.inventory.os.hostname = n;
    }
    rep_of
}

/// Build the lab card from the cards that were read.
pub fn lab_card(
    kb: &Kb,
    mut cards: Vec<NodeCard>,
    rejected: Vec<Rejected>,
    with: Components,
) -> LabCard {
    let keys: Vec<Key> = cards
        .iter()
        .map(|c| Key {
            driver: c.inventory.driver_version().map(|d| d.value.to_string()),
            gpus: gpus_of(c),
            os: os_of(c),
        })
        .collect();
    let rep_of = twins(&mut cards, &keys);
    let cards = &cards[..];
    let unique: Vec<usize> = (0..cards.len()).filter(|&i| rep_of[i] == i).collect();
    // A bare card is checked here; a check report keeps the node's own findings.
    let checked: Vec<(NodeFacts, Option<Vec<Finding>>)> = crate::fleet::par_map(&unique, |&i| {
        let c = &cards[i];
        let facts = NodeFacts::of(&c.inventory, kb);
        let findings = match &c.findings {
            Some(_) => None,
            None => Some(crate::rules::run_rules(&c.inventory, kb)),
        };
        (facts, findings)
    });
    let mut slot = vec![0; cards.len()];
    for (k, &i) in unique.iter().enumerate() {
        slot[i] = k;
    }
    let per_node: Vec<(&NodeFacts, &[Finding])> = (0..cards.len())
        .map(|i| {
            let (f, own) = &checked[slot[rep_of[i]]];
            let findings = match &cards[i].findings {
                Some(mine) => mine.as_slice(),
                None => own.as_deref().unwrap_or(&[]),
            };
            (f, findings)
        })
        .collect();

    let mut by_key: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        by_key.entry(k.clone()).or_default().push(i);
    }
    let mut grouped: Vec<(Key, Vec<usize>)> = by_key.into_iter().collect();
    grouped.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let groups: Vec<Group> = grouped
        .iter()
        .enumerate()
        .map(|(i, (k, idx))| Group {
            id: i + 1,
            driver: k.driver.clone(),
            cuda_max: per_node[idx[0]]
                .0
                .cuda_max
                .as_ref()
                .map(|c| c.value.to_string()),
            gpus: k.gpus.clone(),
            os: k.os.clone(),
            nodes: idx.iter().map(|&j| cards[j].name.clone()).collect(),
        })
        .collect();

    let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
    let floors = Floors {
        driver: floor(
            &per_node
                .iter()
                .zip(&names)
                .map(|((f, _), n)| (f.driver.clone(), *n))
                .collect::<Vec<_>>(),
        ),
        cuda_max: floor(
            &per_node
                .iter()
                .zip(&names)
                .map(|((f, _), n)| (f.cuda_max.as_ref().map(|c| c.value), *n))
                .collect::<Vec<_>>(),
        ),
        compute_capability: floor(
            &per_node
                .iter()
                .zip(&names)
                .map(|((f, _), n)| (f.cc_min, *n))
                .collect::<Vec<_>>(),
        ),
    };

    let errors: Vec<NodeInError> = cards
        .iter()
        .zip(&per_node)
        .filter(|(_, (f, fs))| {
            f.blind.is_some() || fs.iter().any(|x| x.severity == Severity::Error)
        })
        .map(|(c, (f, fs))| NodeInError {
            node: c.name.clone(),
            card: c.path.clone(),
            blind: f.blind.clone(),
            findings: fs
                .iter()
                .filter(|x| x.severity == Severity::Error)
                .map(|x| BriefFinding {
                    code: x.code.clone(),
                    severity: x.severity,
                    message: x.message.clone(),
                })
                .collect(),
        })
        .collect();

    let mut outl = Vec::new();
    let dims: [(&str, KeyText); 3] = [
        ("driver", |k| {
            k.driver.clone().unwrap_or_else(|| "none".into())
        }),
        ("gpus", |k| gpus_text(&k.gpus)),
        ("os", |k| k.os.clone().unwrap_or_else(|| "unknown".into())),
    ];
    for (fact, f) in &dims {
        let vals: Vec<(String, &str)> = keys.iter().zip(&names).map(|(k, n)| (f(k), *n)).collect();
        outl.extend(outliers(fact, &vals));
    }

    // Identical nodes constrain the plan identically: one host per group.
    let hosts: Vec<HostSpec> = grouped
        .iter()
        .enumerate()
        .map(|(i, (_, idx))| {
            let c = &cards[idx[0]];
            let mut h = HostSpec::from_inventory(
                &c.inventory,
                "",
                &format!("{} node(s), e.g. {}", idx.len(), c.path),
                kb,
            );
            h.name = format!("group-{}", i + 1);
            h
        })
        .collect();
    let plan = resolve(
        kb,
        &PlanRequest {
            hosts,
            semantic: Semantic::Toolkit,
            os: None,
            python: None,
            with,
            devel: false,
            cudnn_image: false,
        },
    );
    let common_stack = !groups.is_empty() && plan.stacks.len() == 1 && plan.unplaced.is_empty();
    LabCard {
        schema_version: LAB_SCHEMA_VERSION,
        nodes: cards.len(),
        rejected,
        groups,
        floors,
        errors,
        outliers: outl,
        common_stack,
        plan,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Fact, Inventory};

    fn node(host: &str, module: &str, lib: &str) -> NodeCard {
        let mut inv = Inventory::new("t");
        inv.os.hostname = Some(Fact::new(host.into(), "t"));
        inv.nvidia.kernel_module = Some(Fact::new(module.parse().unwrap(), "/proc"));
        inv.nvidia
            .user_libraries
            .push(crate::inventory::UserLibrary {
                name: "libnvidia-ml".into(),
                path: format!("/usr/lib/libnvidia-ml.so.{lib}"),
                version: Fact::new(lib.parse().unwrap(), "file name"),
            });
        NodeCard {
            path: format!("{host}.json"),
            name: host.into(),
            inventory: inv,
            findings: None,
        }
    }

    #[test]
    fn twins_share_a_check_and_keep_their_names() {
        let kb = Kb::embedded();
        let mut report = node("d", "550.54.14", "550.54.14");
        report.findings = Some(vec![]);
        let cards = vec![
            node("a", "550.54.14", "550.90.07"),
            node("b", "550.54.14", "550.90.07"),
            node("c", "550.54.14", "550.54.14"),
            report,
        ];
        let lab = lab_card(kb, cards, vec![], Components::parse("torch").unwrap());
        let in_error: Vec<&str> = lab.errors.iter().map(|e| e.node.as_str()).collect();
        // a and b have a kernel module and NVML of different releases; c and d do not.
        assert!(
            in_error.contains(&"a") && in_error.contains(&"b"),
            "{in_error:?}"
        );
        assert!(
            !in_error.contains(&"c") && !in_error.contains(&"d"),
            "{in_error:?}"
        );
        let codes = |n: &str| -> Vec<String> {
            lab.errors
                .iter()
                .find(|e| e.node == n)
                .map(|e| e.findings.iter().map(|f| f.code.clone()).collect())
                .unwrap_or_default()
        };
        assert_eq!(codes("a"), codes("b"));
        let names: Vec<&String> = lab.groups.iter().flat_map(|g| &g.nodes).collect();
        assert_eq!(names.len(), 4);
    }
}
