//! The interactive window: an X11 window through Xlib (loaded at run time
//! by `x11-dl`), its events turned into drawstuff's controls. Mouse drags
//! move the camera (see [`crate::camera::Viewpoint::apply_motion`]); keys
//! with Ctrl are viewer commands, other printable keys go to the program.
use std::ffi::{c_void, CString};
use x11_dl::xlib;

/// What the window reports.
pub enum WindowEvent {
    /// A printable key, `ctrl` when Control was held.
    Key { key: u8, ctrl: bool },
    /// Pointer moved by (dx, dy) with `buttons` held (1 left, 2 middle, 4 right).
    Drag { buttons: u32, dx: i32, dy: i32 },
    /// New size.
    Resize(u32, u32),
    /// The window manager asked to close.
    Close,
}

/// An open window.
pub struct X11Window {
    xlib: xlib::Xlib,
    display: *mut xlib::Display,
    window: xlib::Window,
    wm_delete: xlib::Atom,
    wm_protocols: xlib::Atom,
    buttons: u32,
    last: (i32, i32),
}

impl X11Window {
    /// Opens a `width` × `height` window titled `title` on `$DISPLAY`.
    pub fn open(width: u32, height: u32, title: &str) -> Result<Self, String> {
        let xlib = xlib::Xlib::open().map_err(|e| format!("cannot load libX11: {e}"))?;
        // SAFETY: Xlib calls on a display we opened and own until Drop.
        unsafe {
            let display = (xlib.XOpenDisplay)(std::ptr::null());
            if display.is_null() {
                return Err("cannot open the X display".into());
            }
            let screen = (xlib.XDefaultScreen)(display);
            let root = (xlib.XRootWindow)(display, screen);
            let black = (xlib.XBlackPixel)(display, screen);
            let window = (xlib.XCreateSimpleWindow)(display, root, 0, 0, width, height, 0, black, black);
            (xlib.XSelectInput)(
                display,
                window,
                xlib::ButtonPressMask
                    | xlib::ButtonReleaseMask
                    | xlib::KeyPressMask
                    | xlib::ButtonMotionMask
                    | xlib::StructureNotifyMask
                    | xlib::ExposureMask,
            );
            let t = CString::new(title).unwrap_or_default();
            (xlib.XStoreName)(display, window, t.as_ptr());
            let wm_protocols = (xlib.XInternAtom)(display, c"WM_PROTOCOLS".as_ptr(), 0);
            let mut wm_delete = (xlib.XInternAtom)(display, c"WM_DELETE_WINDOW".as_ptr(), 0);
            (xlib.XSetWMProtocols)(display, window, &mut wm_delete, 1);
            (xlib.XMapWindow)(display, window);
            (xlib.XSync)(display, 0);
            Ok(X11Window { xlib, display, window, wm_delete, wm_protocols, buttons: 0, last: (0, 0) })
        }
    }

    /// The Xlib display, for EGL.
    pub fn display_ptr(&self) -> *mut c_void {
        self.display as *mut c_void
    }

    /// The window id, for EGL.
    pub fn window_id(&self) -> u64 {
        self.window
    }

    /// Drains pending events into `out`.
    pub fn poll(&mut self, out: &mut Vec<WindowEvent>) {
        // SAFETY: reading events of our own display; the union is read by its type tag.
        unsafe {
            while (self.xlib.XPending)(self.display) > 0 {
                let mut ev: xlib::XEvent = std::mem::zeroed();
                (self.xlib.XNextEvent)(self.display, &mut ev);
                match ev.get_type() {
                    xlib::ButtonPress | xlib::ButtonRelease => {
                        let b = ev.button;
                        let bit = match b.button {
                            1 => 1,
                            2 => 2,
                            3 => 4,
                            _ => 0,
                        };
                        if ev.get_type() == xlib::ButtonPress {
                            self.buttons |= bit;
                        } else {
                            self.buttons &= !bit;
                        }
                        self.last = (b.x, b.y);
                    }
                    xlib::MotionNotify => {
                        let m = ev.motion;
                        out.push(WindowEvent::Drag {
                            buttons: self.buttons,
                            dx: m.x - self.last.0,
                            dy: m.y - self.last.1,
                        });
                        self.last = (m.x, m.y);
                    }
                    xlib::KeyPress => {
                        let mut key = ev.key;
                        let mut sym: xlib::KeySym = 0;
                        (self.xlib.XLookupString)(&mut key, std::ptr::null_mut(), 0, &mut sym, std::ptr::null_mut());
                        if (0x20..=0x7e).contains(&sym) {
                            out.push(WindowEvent::Key { key: sym as u8, ctrl: key.state & xlib::ControlMask != 0 });
                        }
                    }
                    xlib::ConfigureNotify => {
                        let c = ev.configure;
                        out.push(WindowEvent::Resize(c.width.max(1) as u32, c.height.max(1) as u32));
                    }
                    xlib::ClientMessage => {
                        let c = ev.client_message;
                        if c.message_type == self.wm_protocols
                            && c.format == 32
                            && c.data.get_long(0) as xlib::Atom == self.wm_delete
                        {
                            out.push(WindowEvent::Close);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

impl Drop for X11Window {
    fn drop(&mut self) {
        // SAFETY: our window and display, destroyed once.
        unsafe {
            (self.xlib.XDestroyWindow)(self.display, self.window);
            (self.xlib.XCloseDisplay)(self.display);
        }
    }
}

/// Whether an X display is named in the environment.
pub fn display_available() -> bool {
    std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
}
