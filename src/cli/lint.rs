use super::Ctx;

#[derive(Debug, Default, clap::Args)]
pub struct Args {}

pub fn run(_ctx: &Ctx, _args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`gpucompat lint` is not available in this build yet")
}
