//! extern "C" functions of ODE's common.h: the build configuration string
//! (`dGetConfiguration`) and its token test (`dCheckConfiguration`).

use super::*;
use std::ffi::{c_char, c_int, CStr};

/// The build configuration, ODE's token list, exactly as Debian's libode8
/// reports it. Every feature it names is provided: trimeshes with the
/// OPCODE build's colliders and contact rules (`ODE_EXT_opcode`,
/// `ODE_OPC_new_collider`), ODE's threading API with its built-in
/// implementation (`ODE_EXT_threading`, `ODE_THR_builtin_impl`), double
/// precision.
const CONFIGURATION: &CStr = c"ODE ODE_EXT_trimesh ODE_EXT_opcode ODE_OPC_new_collider ODE_EXT_threading ODE_THR_builtin_impl ODE_double_precision";

/// ODE's token match: `token` must appear as a whole space-separated word.
/// Quirk kept from ODE: an empty token or one containing a space counts as
/// present.
pub fn check_configuration(config: &[u8], token: &[u8]) -> bool {
    if token.is_empty() || token.contains(&b' ') {
        return true;
    }
    let mut start = 0;
    while let Some(pos) = find(&config[start..], token) {
        let at = start + pos;
        let end = at + token.len();
        if (at == start || config[at - 1] == b' ') && (end == config.len() || config[end] == b' ') {
            return true;
        }
        start = end;
    }
    false
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[no_mangle]
pub unsafe extern "C" fn dGetConfiguration() -> *const c_char {
    CONFIGURATION.as_ptr()
}

#[no_mangle]
pub unsafe extern "C" fn dCheckConfiguration(token: *const c_char) -> c_int {
    call("dCheckConfiguration", 0, |cx| {
        cx.ptr("token", token)?;
        let t = CStr::from_ptr(token).to_bytes();
        Some(check_configuration(CONFIGURATION.to_bytes(), t) as c_int)
    })
}

#[cfg(test)]
mod tests {
    use super::check_configuration as check;

    #[test]
    fn whole_words_only() {
        let c = b"ODE ODE_EXT_trimesh ODE_double_precision";
        assert!(check(c, b"ODE"));
        assert!(check(c, b"ODE_EXT_trimesh"));
        assert!(check(c, b"ODE_double_precision"));
        assert!(!check(c, b"ODE_EXT"));
        assert!(!check(c, b"precision"));
        assert!(!check(c, b"ODE_single_precision"));
        // ODE's quirks.
        assert!(check(c, b""));
        assert!(check(c, b"a b"));
    }
}
