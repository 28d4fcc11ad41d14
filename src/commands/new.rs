pub fn run(_ctx: &super::Context, _args: &crate::cli::NewArgs) -> crate::error::CliResult {
    Err(crate::error::CliError::not_implemented("new"))
}
