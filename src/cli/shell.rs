//! `gpucompat completions SHELL` and `gpucompat man`: shell integration
//! generated from the same clap definition the parser uses, so they cannot
//! drift from the options.

use std::io::Write;

use clap::CommandFactory;

use super::Cli;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// Bash: `source <(gpucompat completions bash)`.
    Bash,
    /// Zsh: write to a file named `_gpucompat` in a directory on `$fpath`.
    Zsh,
    /// Fish: write to `~/.config/fish/completions/gpucompat.fish`.
    Fish,
    /// PowerShell: `gpucompat completions powershell | Out-String | Invoke-Expression`.
    Powershell,
    /// Elvish: `eval (gpucompat completions elvish | slurp)`.
    Elvish,
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn completions(args: CompletionsArgs) -> anyhow::Result<i32> {
    use clap_complete::Shell as S;
    let shell = match args.shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::Powershell => S::PowerShell,
        Shell::Elvish => S::Elvish,
    };
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "gpucompat", &mut out);
    std::io::stdout().lock().write_all(&out)?;
    Ok(0)
}

/// The man page (roff), for `gpucompat man > gpucompat.1`.
pub fn man() -> anyhow::Result<i32> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    std::io::stdout().lock().write_all(&out)?;
    Ok(0)
}
