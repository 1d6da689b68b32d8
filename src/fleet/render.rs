//! The lab card as text, Markdown and JSON.

use std::fmt::Write as _;

use crate::fleet::lab::{GpuCount, LabCard};
use crate::plan::resolver::Stack;

fn gpus(g: &[GpuCount]) -> String {
    if g.is_empty() {
        return "no GPU".into();
    }
    g.iter()
        .map(|c| match &c.compute_capability {
            Some(cc) => format!("{}x {} (sm {cc})", c.count, c.name),
            None => format!("{}x {}", c.count, c.name),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn or_unknown(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("unknown")
}

fn names(list: &[String], max: usize) -> String {
    if list.len() <= max {
        return list.join(", ");
    }
    format!(
        "{}, ... ({} more)",
        list[..max].join(", "),
        list.len() - max
    )
}

fn stack_line(s: &Stack) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &s.cuda {
        parts.push(format!("CUDA {}", c.shown()));
    }
    for p in &s.packages {
        parts.push(
            p.requirement
                .clone()
                .unwrap_or_else(|| format!("{} (version unknown)", p.package)),
        );
    }
    if let Some(i) = &s.image {
        parts.push(format!("image {}", i.reference));
    }
    if let Some(d) = &s.min_driver {
        parts.push(format!("driver >= {}", d.shown()));
    }
    parts.join("; ")
}

fn stack_hosts(s: &Stack) -> String {
    s.hosts.join(", ")
}

pub fn text(card: &LabCard) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Lab card: {} node(s) in {} group(s){}",
        card.nodes,
        card.groups.len(),
        if card.rejected.is_empty() {
            String::new()
        } else {
            format!(", {} card(s) skipped", card.rejected.len())
        }
    );
    s.push_str("\nGroups of identical nodes:\n");
    for g in &card.groups {
        let _ = writeln!(
            s,
            "  group-{}: {} node(s): driver {}, CUDA max {}, {}, {}\n    {}",
            g.id,
            g.nodes.len(),
            or_unknown(&g.driver),
            or_unknown(&g.cuda_max),
            gpus(&g.gpus),
            or_unknown(&g.os),
            names(&g.nodes, 8)
        );
    }
    s.push_str("\nFleet floor:\n");
    for (what, f) in [
        ("lowest driver", &card.floors.driver),
        ("lowest CUDA max", &card.floors.cuda_max),
        ("lowest compute capability", &card.floors.compute_capability),
    ] {
        match f {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "  {what}: {} ({}, {} node(s))",
                    f.value, f.node, f.nodes_at
                );
            }
            None => {
                let _ = writeln!(s, "  {what}: unknown");
            }
        }
    }
    if !card.errors.is_empty() {
        let _ = writeln!(s, "\nNodes in error ({}):", card.errors.len());
        for e in &card.errors {
            let _ = writeln!(s, "  {} ({})", e.node, e.card);
            if let Some(b) = &e.blind {
                let _ = writeln!(s, "    probe could not see the GPUs: {b}");
            }
            for f in &e.findings {
                let _ = writeln!(s, "    {}[{}] {}", f.severity, f.code, f.message);
            }
        }
    }
    if !card.outliers.is_empty() {
        s.push_str("\nOutliers:\n");
        for o in &card.outliers {
            let _ = writeln!(
                s,
                "  {}: {} {} (the other {} node(s) have {})",
                o.node, o.fact, o.value, o.usual_nodes, o.usual
            );
        }
    }
    s.push('\n');
    if card.common_stack {
        let st = &card.plan.stacks[0];
        let _ = writeln!(
            s,
            "Newest stack that runs on every node:\n  {}",
            stack_line(st)
        );
    } else if card.plan.stacks.is_empty() {
        s.push_str("No stack runs on these nodes.\n");
    } else {
        s.push_str("No single stack runs on every node; per group:\n");
        for st in &card.plan.stacks {
            let _ = writeln!(
                s,
                "  stack {} for {}: {}",
                st.id,
                stack_hosts(st),
                stack_line(st)
            );
        }
        for why in &card.plan.split {
            let _ = writeln!(s, "  why split: {why}");
        }
    }
    for u in &card.plan.unplaced {
        let _ = writeln!(s, "  {}: no stack: {}", u.host, u.problems.join("; "));
    }
    if !card.rejected.is_empty() {
        let _ = writeln!(s, "\nSkipped cards ({}):", card.rejected.len());
        for r in &card.rejected {
            let _ = writeln!(s, "  {}: {}", r.path, r.reason);
        }
    }
    s
}

fn md_cell(v: &str) -> String {
    v.replace('|', "\\|").replace('\n', " ")
}

pub fn markdown(card: &LabCard) -> String {
    let mut s = String::from("# Lab compatibility card\n\n");
    let _ = writeln!(
        s,
        "{} node(s), {} group(s), {} card(s) skipped.\n",
        card.nodes,
        card.groups.len(),
        card.rejected.len()
    );
    s.push_str("## Groups\n\n| group | nodes | driver | CUDA max | GPUs | OS |\n| --- | --- | --- | --- | --- | --- |\n");
    for g in &card.groups {
        let _ = writeln!(
            s,
            "| group-{} | {} ({}) | {} | {} | {} | {} |",
            g.id,
            g.nodes.len(),
            md_cell(&names(&g.nodes, 5)),
            md_cell(or_unknown(&g.driver)),
            md_cell(or_unknown(&g.cuda_max)),
            md_cell(&gpus(&g.gpus)),
            md_cell(or_unknown(&g.os))
        );
    }
    s.push_str(
        "\n## Fleet floor\n\n| fact | lowest | node | nodes at it |\n| --- | --- | --- | --- |\n",
    );
    for (what, f) in [
        ("driver", &card.floors.driver),
        ("CUDA max", &card.floors.cuda_max),
        ("compute capability", &card.floors.compute_capability),
    ] {
        match f {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "| {what} | {} | {} | {} |",
                    md_cell(&f.value),
                    md_cell(&f.node),
                    f.nodes_at
                );
            }
            None => {
                let _ = writeln!(s, "| {what} | unknown | | |");
            }
        }
    }
    s.push_str("\n## Stack\n\n");
    if card.common_stack {
        let _ = writeln!(
            s,
            "Runs on every node: {}",
            md_cell(&stack_line(&card.plan.stacks[0]))
        );
    } else {
        for st in &card.plan.stacks {
            let _ = writeln!(
                s,
                "- stack {} for {}: {}",
                st.id,
                md_cell(&stack_hosts(st)),
                md_cell(&stack_line(st))
            );
        }
        for u in &card.plan.unplaced {
            let _ = writeln!(
                s,
                "- {}: no stack: {}",
                u.host,
                md_cell(&u.problems.join("; "))
            );
        }
    }
    if !card.errors.is_empty() {
        s.push_str("\n## Nodes in error\n\n| node | findings |\n| --- | --- |\n");
        for e in &card.errors {
            let mut f: Vec<String> = e
                .findings
                .iter()
                .map(|f| format!("{}: {}", f.code, f.message))
                .collect();
            if let Some(b) = &e.blind {
                f.insert(0, format!("GPUs not seen: {b}"));
            }
            let _ = writeln!(s, "| {} | {} |", md_cell(&e.node), md_cell(&f.join("; ")));
        }
    }
    if !card.outliers.is_empty() {
        s.push_str("\n## Outliers\n\n| node | fact | value | usual |\n| --- | --- | --- | --- |\n");
        for o in &card.outliers {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} ({} nodes) |",
                md_cell(&o.node),
                o.fact,
                md_cell(&o.value),
                md_cell(&o.usual),
                o.usual_nodes
            );
        }
    }
    if !card.rejected.is_empty() {
        s.push_str("\n## Skipped cards\n\n");
        for r in &card.rejected {
            let _ = writeln!(s, "- `{}`: {}", md_cell(&r.path), md_cell(&r.reason));
        }
    }
    s
}

pub fn json(card: &LabCard) -> String {
    serde_json::to_string_pretty(card).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
}
