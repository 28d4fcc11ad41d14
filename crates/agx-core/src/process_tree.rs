//! Ending every process a call started, including those that left its process group
//! (`setsid`) or its tree (a double fork), which killing the group does not reach.
//!
//! - Each call's processes carry [`CALL_ENV`] in their environment, which children inherit.
//! - `agx serve` makes itself a child subreaper ([`adopt_orphans`]): a process whose parent
//!   exits is re-parented to agx instead of init, so it stays among agx's descendants.
//! - When a call ends, agx kills its process group, every descendant of its command while
//!   that still runs, and every descendant of agx that carries the call's marker, repeating
//!   until a pass finds nothing new; adopted processes are reaped.
//! - A process that also cleared its environment cannot be told apart; it is ended when no
//!   call is running. Children agx had before serving (a wrapper script that started a
//!   helper and then exec'd `agx serve`) are left alone.
//!
//! The process table is read from /proc on Linux and from libproc (`proc_listallpids`,
//! `proc_pidinfo`, the `KERN_PROCARGS2` sysctl for environments) on macOS. macOS has no
//! subreaper: a process whose parent exits moves to launchd, out of agx's tree, so there agx
//! looks for the call's marker in every process of the table instead (as Linux does when
//! it cannot adopt). A process that left the group, left the tree and cleared its
//! environment outlives the call on macOS. Windows uses Job Objects instead (see
//! `windows_job`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable naming the call a process belongs to.
pub const CALL_ENV: &str = "AGX_CALL_ID";

/// Passes over the process table per call end: each pass kills what the previous one could
/// not see yet (children forked while it ran). Ends far sooner unless a tool forks madly.
#[cfg(any(target_os = "linux", target_os = "macos"))]
const MAX_PASSES: usize = 100;

/// What agx knows about its children.
#[cfg_attr(windows, allow(dead_code))]
struct Children {
    /// Whether this process adopts orphans (see [`adopt_orphans`]).
    adopting: bool,
    /// Commands of calls still running, which their own `tokio::process::Child` waits for.
    roots: Vec<u32>,
    /// Killed or adopted processes that may still need reaping.
    to_reap: Vec<u32>,
    /// Children this process had before it served: not the calls' to end.
    inherited: Vec<u32>,
}

static CHILDREN: Mutex<Children> = Mutex::new(Children {
    adopting: false,
    roots: Vec::new(),
    to_reap: Vec::new(),
    inherited: Vec::new(),
});

fn children() -> std::sync::MutexGuard<'static, Children> {
    CHILDREN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Make this process the reaper of its descendants' orphans, and reap them as they end.
/// Call once, inside the runtime, before any command runs.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag of this process.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
            tracing::warn!(
                "cannot adopt orphaned tool processes ({}); processes a tool moves out of its \
                 tree may outlive its call",
                std::io::Error::last_os_error()
            );
            return;
        }
        let mut known = children();
        known.adopting = true;
        if has_children() {
            let me = std::process::id();
            known.inherited = procfs::table()
                .iter()
                .filter(|p| p.ppid == me)
                .map(|p| p.pid)
                .collect();
        }
        drop(known);
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::child()) {
            Ok(mut ended) => {
                tokio::spawn(async move {
                    while ended.recv().await.is_some() {
                        reap(&mut children());
                    }
                });
            }
            Err(e) => tracing::warn!("cannot watch for ended processes: {e}"),
        }
    }
}

/// One call: its marker, and its command while that has not been waited for.
pub struct Call {
    id: String,
    root: Option<u32>,
    /// Windows: the Job Object holding the command and everything it starts.
    #[cfg(windows)]
    job: Option<windows_job::Job>,
}

impl Call {
    pub fn new() -> Call {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Call {
            id: format!(
                "{}.{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ),
            root: None,
            #[cfg(windows)]
            job: None,
        }
    }

    /// Start the call's command in a process group of its own (Unix) or a Job Object
    /// (Windows), marked as this call's.
    pub fn spawn(
        &mut self,
        command: &mut tokio::process::Command,
    ) -> std::io::Result<tokio::process::Child> {
        command.env(CALL_ENV, &self.id);
        #[cfg(unix)]
        command.process_group(0);
        // Registered before any reaping can see it exit: the reaper must leave it to tokio.
        let mut known = children();
        let child = command.spawn()?;
        if let Some(pid) = child.id() {
            known.roots.push(pid);
            self.root = Some(pid);
        }
        #[cfg(windows)]
        {
            self.job = windows_job::Job::holding(child.raw_handle())
                .inspect_err(|e| {
                    tracing::warn!(
                        "cannot put the tool's process in a Job Object ({e}); processes it \
                         starts may outlive its call"
                    )
                })
                .ok();
        }
        Ok(child)
    }

    /// The command still runs (timeout, cancellation): kill it and everything under it.
    /// The caller then waits for it and calls [`Call::finish`].
    pub fn stop(&self) {
        #[cfg(unix)]
        if let Some(root) = self.root {
            let mut known = children();
            // The tree first: once the command dies, its children move to another parent.
            end(&mut known, &self.id, Some(root));
            kill_group(root);
        }
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
    }

    /// The command has been waited for: end whatever it left behind.
    pub fn finish(mut self) {
        self.end_all();
    }

    fn end_all(&mut self) {
        let mut known = children();
        let root = self.root.take();
        if let Some(root) = root {
            known.roots.retain(|&pid| pid != root);
            // The group outlives its leader while members remain, and keeps its id.
            #[cfg(unix)]
            kill_group(root);
        }
        #[cfg(windows)]
        if let Some(job) = self.job.take() {
            // Ends every process still in the job (closing it would too).
            job.terminate();
        }
        end(&mut known, &self.id, None);
    }
}

impl Default for Call {
    fn default() -> Self {
        Call::new()
    }
}

/// A call dropped half-way (the server is shutting down) still ends its processes.
impl Drop for Call {
    fn drop(&mut self) {
        if self.root.is_some() {
            self.stop();
            self.end_all();
        }
    }
}

/// A short-lived command of agx's own (a tool's self-test, npm, pip), started by
/// [`spawn_tree`]: [`Tree::kill`] ends it and what it started, through the process group it
/// leads (Unix) or its Job Object (Windows).
pub struct Tree {
    #[cfg(windows)]
    job: Option<windows_job::Job>,
}

/// Start `command` in a process group of its own (Unix) or a Job Object (Windows).
pub fn spawn_tree(
    command: &mut std::process::Command,
) -> std::io::Result<(std::process::Child, Tree)> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let child = command.spawn()?;
    #[cfg(windows)]
    let job = {
        use std::os::windows::io::AsRawHandle;
        windows_job::Job::holding(Some(child.as_raw_handle()))
            .inspect_err(|e| {
                tracing::warn!(
                    "cannot put {} in a Job Object ({e}); processes it starts may outlive it",
                    command.get_program().to_string_lossy()
                )
            })
            .ok()
    };
    Ok((
        child,
        Tree {
            #[cfg(windows)]
            job,
        },
    ))
}

impl Tree {
    /// Kill the command and everything in its group or job.
    pub fn kill(&self, child: &mut std::process::Child) {
        #[cfg(unix)]
        kill_group(child.id());
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
        let _ = child.kill();
    }
}

#[cfg(unix)]
fn kill_group(pgid: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(pgid) {
        // SAFETY: killpg only sends a signal; the group id is the command's pid
        // (process_group(0)).
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

#[cfg(unix)]
#[cfg_attr(not(any(target_os = "linux", target_os = "macos")), allow(dead_code))]
fn kill(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill only sends a signal.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Kill the call's processes: those under `root` (while it runs) and those carrying its
/// marker, plus, when no other call runs, every orphan agx adopted. Without adoption an
/// orphan has left agx's tree, so the marker is looked for in the whole table.
#[cfg(any(target_os = "linux", target_os = "macos"))]
fn end(known: &mut Children, call: &str, root: Option<u32>) {
    let me = std::process::id();
    let others_running = known.roots.iter().any(|&pid| Some(pid) != root);
    if root.is_none() && !others_running && known.adopting && !has_children() {
        // Nothing of this call can be left among agx's descendants.
        return;
    }
    let marker = format!("{CALL_ENV}={call}");
    let mut killed: Vec<u32> = Vec::new();
    for _ in 0..MAX_PASSES {
        let table = ptable::table();
        let mut targets: Vec<u32> = Vec::new();
        for p in descendants(&table, me) {
            let child = p.ppid == me && !known.roots.contains(&p.pid);
            if child && p.zombie {
                known.to_reap.push(p.pid);
            }
            let orphan = child && known.adopting && !known.inherited.contains(&p.pid);
            let ours = Some(p.pid) == root
                || targets.contains(&p.ppid)
                || ptable::has_env(p.pid, &marker)
                || (orphan && !others_running);
            if ours {
                targets.push(p.pid);
            }
        }
        if !known.adopting {
            targets.extend(
                table
                    .iter()
                    .filter(|p| p.pid != me && !p.zombie && !targets.contains(&p.pid))
                    .filter(|p| ptable::has_env(p.pid, &marker))
                    .map(|p| p.pid)
                    .collect::<Vec<_>>(),
            );
        }
        let new: Vec<u32> = targets
            .into_iter()
            .filter(|pid| !killed.contains(pid))
            .collect();
        if new.is_empty() {
            break;
        }
        for &pid in &new {
            kill(pid);
        }
        killed.extend(new);
    }
    if known.adopting {
        known.to_reap.extend(killed);
        reap(known);
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn end(_known: &mut Children, _call: &str, _root: Option<u32>) {}

/// Only Linux adopts orphans, and only an adopting agx asks.
#[cfg(target_os = "macos")]
fn has_children() -> bool {
    true
}

/// Whether this process has any child (running or ended, not yet reaped).
#[cfg(target_os = "linux")]
fn has_children() -> bool {
    // SAFETY: waitid with WNOWAIT only inspects; siginfo is plain data it fills in.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_ALL,
            0,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        !(r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD))
    }
}

/// Reap the adopted or killed processes that have ended, leaving call commands to tokio.
#[cfg(target_os = "linux")]
fn reap(known: &mut Children) {
    let roots = known.roots.clone();
    known.to_reap.retain(|&pid| {
        if roots.contains(&pid) {
            // The pid was reused by a call's command: not ours to wait for.
            return false;
        }
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: waitpid on one pid with WNOHANG; a null status pointer is allowed.
        match unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) } {
            // Still running.
            0 => true,
            // Not (yet) a child: a killed process under another one becomes agx's when
            // that one dies first, so keep it while it exists.
            -1 => std::path::Path::new(&format!("/proc/{pid}")).exists(),
            _ => false,
        }
    });
    known.to_reap.sort_unstable();
    known.to_reap.dedup();
}

#[cfg(target_os = "macos")]
fn reap(_known: &mut Children) {}

/// One entry of the process table.
#[cfg_attr(not(any(target_os = "linux", target_os = "macos")), allow(dead_code))]
pub(crate) struct Process {
    pub(crate) pid: u32,
    pub(crate) ppid: u32,
    pub(crate) zombie: bool,
}

/// The descendants of `ancestor`, each after its parent.
#[cfg_attr(not(any(target_os = "linux", target_os = "macos")), allow(dead_code))]
fn descendants(table: &[Process], ancestor: u32) -> Vec<&Process> {
    let mut found: Vec<&Process> = Vec::new();
    let mut parents = vec![ancestor];
    while let Some(parent) = parents.pop() {
        for p in table.iter().filter(|p| p.ppid == parent && p.pid != parent) {
            found.push(p);
            parents.push(p.pid);
        }
    }
    found
}

#[cfg(target_os = "macos")]
use darwin as ptable;
#[cfg(target_os = "linux")]
use procfs as ptable;

/// Reading the process table from /proc.
#[cfg(target_os = "linux")]
mod procfs {
    pub(crate) use super::Process;

    /// Every process there is (those that end while it is read are left out).
    pub(super) fn table() -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter_map(|pid| {
                let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
                parse_stat(pid, &stat)
            })
            .collect()
    }

    /// `pid (comm) state ppid …`: comm may hold spaces and parentheses, so the fields
    /// are read after the last `)`.
    pub(super) fn parse_stat(pid: u32, stat: &[u8]) -> Option<Process> {
        let close = stat.iter().rposition(|&b| b == b')')?;
        let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
        let mut fields = rest.split_ascii_whitespace();
        let state = fields.next()?;
        let ppid = fields.next()?.parse().ok()?;
        Some(Process {
            pid,
            ppid,
            zombie: state == "Z" || state == "X",
        })
    }

    /// Whether the environment `pid` started with holds exactly `entry` (`NAME=value`).
    pub(super) fn has_env(pid: u32, entry: &str) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|environ| environ_has(&environ, entry))
    }

    pub(super) fn environ_has(environ: &[u8], entry: &str) -> bool {
        environ.split(|&b| b == 0).any(|e| e == entry.as_bytes())
    }
}

/// Reading the process table through libproc and sysctl.
#[cfg(target_os = "macos")]
mod darwin {
    use super::Process;

    /// Every process there is (those that end while it is read are left out).
    pub(super) fn table() -> Vec<Process> {
        // SAFETY: a null buffer asks only for the number of processes.
        let count = unsafe { libc::proc_listallpids(std::ptr::null_mut(), 0) };
        let Ok(count) = usize::try_from(count) else {
            return Vec::new();
        };
        // Room for processes started since the count.
        let mut pids: Vec<libc::c_int> = vec![0; count + 64];
        let Ok(bytes) = libc::c_int::try_from(std::mem::size_of_val(pids.as_slice())) else {
            return Vec::new();
        };
        // SAFETY: the buffer holds `bytes` bytes; the call fills at most that many.
        let filled = unsafe { libc::proc_listallpids(pids.as_mut_ptr().cast(), bytes) };
        let Ok(filled) = usize::try_from(filled) else {
            return Vec::new();
        };
        pids.truncate(filled);
        pids.into_iter().filter_map(bsd_info).collect()
    }

    fn bsd_info(pid: libc::c_int) -> Option<Process> {
        let pid_u32 = u32::try_from(pid).ok().filter(|&p| p > 0)?;
        // SAFETY: proc_bsdinfo is plain data the call fills in.
        let mut info: libc::proc_bsdinfo = unsafe { std::mem::zeroed() };
        let size = libc::c_int::try_from(std::mem::size_of::<libc::proc_bsdinfo>()).ok()?;
        // SAFETY: the buffer is one proc_bsdinfo of `size` bytes.
        let got = unsafe {
            libc::proc_pidinfo(pid, libc::PROC_PIDTBSDINFO, 0, (&raw mut info).cast(), size)
        };
        (got == size).then_some(Process {
            pid: pid_u32,
            ppid: info.pbi_ppid,
            zombie: info.pbi_status == libc::SZOMB,
        })
    }

    /// Whether the environment `pid` started with holds exactly `entry` (`NAME=value`);
    /// readable for this user's processes only.
    pub(super) fn has_env(pid: u32, entry: &str) -> bool {
        procargs(pid).is_some_and(|args| super::procargs_env_has(&args, entry))
    }

    /// `KERN_PROCARGS2` of `pid`: argc, the executable path, argv, then the environment.
    fn procargs(pid: u32) -> Option<Vec<u8>> {
        let pid = libc::c_int::try_from(pid).ok()?;
        let mut mib = [libc::CTL_KERN, libc::KERN_PROCARGS2, pid];
        let mut size: libc::size_t = 0;
        // SAFETY: a null buffer asks only for the size.
        let asked = unsafe {
            libc::sysctl(
                mib.as_mut_ptr(),
                3,
                std::ptr::null_mut(),
                &mut size,
                std::ptr::null_mut(),
                0,
            )
        };
        if asked != 0 || size == 0 {
            return None;
        }
        let mut buffer = vec![0u8; size];
        // SAFETY: the buffer holds `size` bytes; the call sets `size` to what it wrote.
        let read = unsafe {
            libc::sysctl(
                mib.as_mut_ptr(),
                3,
                buffer.as_mut_ptr().cast(),
                &mut size,
                std::ptr::null_mut(),
                0,
            )
        };
        if read != 0 {
            return None;
        }
        buffer.truncate(size);
        Some(buffer)
    }
}

/// A Job Object that ends its processes when it is terminated or closed; a process started
/// inside it is inside it too. The command is assigned right after it starts: a process it
/// starts before that (in its first instants) is outside the job.
#[cfg(windows)]
mod windows_job {
    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject,
    };

    pub(super) struct Job(HANDLE);

    // SAFETY: a job handle may be used and closed from any thread.
    unsafe impl Send for Job {}
    // SAFETY: as above; the calls made through a shared Job are thread-safe.
    unsafe impl Sync for Job {}

    impl Job {
        /// A new job, killing its processes when closed, holding `process` (a child's
        /// handle; `None` when it was already waited for).
        pub(super) fn holding(
            process: Option<std::os::windows::io::RawHandle>,
        ) -> std::io::Result<Job> {
            // SAFETY: no attributes, no name: an anonymous job this process owns.
            let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
            if handle.is_null() {
                return Err(std::io::Error::last_os_error());
            }
            let job = Job(handle);
            // SAFETY: plain data, zero is a valid value for every field.
            let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
            limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            let size = u32::try_from(std::mem::size_of_val(&limits)).expect("small struct");
            // SAFETY: the pointer and size describe `limits`, of the class named.
            let set = unsafe {
                SetInformationJobObject(
                    job.0,
                    JobObjectExtendedLimitInformation,
                    (&raw const limits).cast(),
                    size,
                )
            };
            if set == 0 {
                return Err(std::io::Error::last_os_error());
            }
            let Some(process) = process else {
                // Already waited for: nothing to hold.
                return Ok(job);
            };
            // SAFETY: both handles are open: the job's here, the process's in `child`.
            if unsafe { AssignProcessToJobObject(job.0, process as HANDLE) } == 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(job)
        }

        /// End every process in the job.
        pub(super) fn terminate(&self) {
            // SAFETY: the handle is open until drop.
            unsafe {
                TerminateJobObject(self.0, 1);
            }
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // SAFETY: the handle is open and closed once.
            unsafe {
                CloseHandle(self.0);
            }
        }
    }
}

/// Whether a `KERN_PROCARGS2` buffer (argc as a native int, the executable path, NUL
/// padding, argc arguments, then the environment, each NUL-terminated) holds `entry`.
/// Plain parsing, so it is tested on every Unix.
#[cfg(any(test, target_os = "macos"))]
fn procargs_env_has(args: &[u8], entry: &str) -> bool {
    const INT: usize = std::mem::size_of::<i32>();
    let Some(argc) = args
        .get(..INT)
        .and_then(|b| <[u8; INT]>::try_from(b).ok())
        .map(i32::from_ne_bytes)
        .and_then(|n| usize::try_from(n).ok())
    else {
        return false;
    };
    let mut rest = &args[INT..];
    // The executable path, then NULs up to the first argument.
    let Some(end) = rest.iter().position(|&b| b == 0) else {
        return false;
    };
    rest = &rest[end..];
    let start = rest.iter().position(|&b| b != 0).unwrap_or(rest.len());
    rest = &rest[start..];
    let mut strings = rest.split(|&b| b == 0);
    for _ in 0..argc {
        if strings.next().is_none() {
            return false;
        }
    }
    strings
        .take_while(|s| !s.is_empty())
        .any(|s| s == entry.as_bytes())
}

#[cfg(test)]
mod procargs_tests {
    #[test]
    fn procargs_environments_are_read_after_the_arguments() {
        let mut buffer = 2i32.to_ne_bytes().to_vec();
        buffer.extend_from_slice(
            b"/bin/sh\0\0\0sh\0AGX_CALL_ID=7.12\0PATH=/bin\0AGX_CALL_ID=7.1\0\0junk\0",
        );
        let has = |entry| super::procargs_env_has(&buffer, entry);
        // The second argument looks like the marker but is not the environment.
        assert!(!has("AGX_CALL_ID=7.12"));
        assert!(has("AGX_CALL_ID=7.1"));
        assert!(has("PATH=/bin"));
        assert!(!has("junk"));
        assert!(!super::procargs_env_has(&buffer[..3], "PATH=/bin"));
        assert!(!super::procargs_env_has(b"\x05\0\0\0/bin/sh", "PATH=/bin"));
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::descendants;
    use super::procfs::*;

    /// Whether `pid` has ended (gone, or a zombie waiting for its new parent).
    fn ended(pid: u32) -> bool {
        std::fs::read(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| parse_stat(pid, &stat))
            .is_none_or(|p| p.zombie)
    }

    /// This test process does not adopt orphans (it never calls `adopt_orphans`), as macOS
    /// cannot: a daemonised child leaves the tree, and only its marker finds it.
    #[tokio::test]
    async fn without_adoption_a_daemonised_child_is_found_by_its_marker() {
        assert!(!super::children().adopting);
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("daemon.pid");
        let mut command = tokio::process::Command::new("sh");
        command.arg("-c").arg(format!(
            "( setsid sh -c 'echo $$ > {}.tmp; mv {0}.tmp {0}; exec sleep 60' \
               </dev/null >/dev/null 2>&1 & )",
            pid_file.display()
        ));
        let mut call = super::Call::new();
        let status = call.spawn(&mut command).unwrap().wait().await.unwrap();
        assert!(status.success());
        let mut daemon = None;
        for _ in 0..500 {
            if let Ok(text) = std::fs::read_to_string(&pid_file) {
                daemon = text.trim().parse::<u32>().ok();
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let daemon = daemon.expect("the daemon wrote its pid");
        assert!(!ended(daemon), "the daemon runs before the call ends");
        call.finish();
        for _ in 0..500 {
            if ended(daemon) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // Not left behind by a failing test.
        super::kill(daemon);
        panic!("the daemonised child {daemon} outlived its call");
    }

    #[test]
    fn stat_lines_with_odd_command_names_parse() {
        let p = parse_stat(42, b"42 (a) b) (c) S 7 42 42 0 -1").unwrap();
        assert_eq!((p.pid, p.ppid, p.zombie), (42, 7, false));
        assert!(parse_stat(9, b"9 (sh) Z 1 9 9").unwrap().zombie);
        assert!(parse_stat(9, b"9 (sh").is_none());
    }

    #[test]
    fn descendants_come_after_their_parents() {
        let p = |pid, ppid| Process {
            pid,
            ppid,
            zombie: false,
        };
        let table = [p(4, 3), p(3, 1), p(2, 1), p(5, 9), p(1, 0)];
        let found: Vec<u32> = descendants(&table, 1).iter().map(|p| p.pid).collect();
        assert_eq!(found.len(), 3);
        let at = |pid| found.iter().position(|&f| f == pid).unwrap();
        assert!(at(3) < at(4));
        assert!(!found.contains(&5));
    }

    #[test]
    fn markers_match_whole_entries() {
        let environ = b"PATH=/bin\0AGX_CALL_ID=7.12\0HOME=/h\0";
        assert!(environ_has(environ, "AGX_CALL_ID=7.12"));
        assert!(!environ_has(environ, "AGX_CALL_ID=7.1"));
        assert!(!environ_has(environ, "AGX_CALL_ID=7.123"));
    }

    #[test]
    fn this_process_is_in_the_table() {
        let me = std::process::id();
        let table = table();
        let mine = table.iter().find(|p| p.pid == me).unwrap();
        assert_eq!(mine.ppid, std::os::unix::process::parent_id());
    }
}
