use super::Ctx;

#[derive(Debug, clap::Subcommand)]
pub enum DbCommand {}

pub fn run(_ctx: &Ctx, _cmd: DbCommand) -> anyhow::Result<i32> {
    Ok(0)
}
