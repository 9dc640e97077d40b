//! extern "C" functions of export-dif.h: `dWorldExportDIF` validates its
//! arguments, has `crate::export_dif` build the text and writes it to the
//! host's `FILE*` (in one piece, so a rejected call writes nothing).

use super::{call, dWorldID};
use crate::dynamics::world::WORLDS;
use std::ffi::{c_char, CStr};

#[no_mangle]
pub unsafe extern "C" fn dWorldExportDIF(w: dWorldID, file: *mut libc::FILE, world_name: *const c_char) {
    call("dWorldExportDIF", (), |cx| {
        let w = cx.handle(&WORLDS, w, "w", "world")?;
        cx.ptr_mut("file", file)?;
        cx.ptr("world_name", world_name)?;
        let prefix = CStr::from_ptr(world_name).to_bytes();
        let text = crate::export_dif::export(w.get(), prefix);
        libc::fwrite(text.as_ptr().cast(), 1, text.len(), file);
        Some(())
    })
}
