//! What a wheel's dist-info says about the platform it was built for.

use std::path::Path;

use crate::inventory::Fact;
use crate::system::System;

/// The first `Tag:` of the `WHEEL` file beside a distribution's `METADATA`
/// (`cp312-none-macosx_11_0_arm64`, `cp312-cp312-win_amd64`).
pub(crate) fn tag(sys: &dyn System, metadata: &str) -> Option<Fact<String>> {
    let wheel = Path::new(metadata).parent()?.join("WHEEL");
    let text = sys.read_range(&wheel, 0, 4096).ok()?;
    let text = String::from_utf8_lossy(&text);
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("Tag:"))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())?;
    Some(Fact::new(value, wheel.display().to_string()))
}
