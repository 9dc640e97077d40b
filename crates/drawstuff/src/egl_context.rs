//! OpenGL contexts through EGL, loaded at run time (`libEGL.so.1`): a
//! surfaceless one for headless rendering (Mesa's `EGL_MESA_platform_surfaceless`,
//! software rendering with llvmpipe when there is no GPU), and one on an X11
//! window. Both ask for OpenGL 3.3 core.
use khronos_egl as egl;
use std::ffi::c_void;

type Egl = egl::DynamicInstance<egl::EGL1_5>;

const PLATFORM_X11_KHR: egl::Enum = 0x31D5;
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;

/// A current EGL context (and window surface, in window mode).
pub struct GlContext {
    egl: Egl,
    display: egl::Display,
    context: egl::Context,
    surface: Option<egl::Surface>,
}

impl GlContext {
    /// A context with no surface, for drawing into framebuffer objects.
    pub fn headless() -> Result<(Self, glow::Context), String> {
        // SAFETY: loading the system's libEGL; its entry points are EGL's.
        let egl = unsafe { Egl::load_required() }.map_err(|e| format!("cannot load libEGL.so.1: {e}"))?;
        // SAFETY: the surfaceless platform takes no native display.
        let display =
            unsafe { egl.get_platform_display(PLATFORM_SURFACELESS_MESA, egl::DEFAULT_DISPLAY, &[egl::ATTRIB_NONE]) }
                .map_err(|e| format!("no surfaceless EGL display (Mesa's libegl-mesa0 needed): {e}"))?;
        Self::finish(egl, display, None, egl::PBUFFER_BIT)
    }

    /// A context drawing to X11 window `window` of `xdisplay`.
    ///
    /// # Safety
    /// `xdisplay` must be an open Xlib `Display*` and `window` a window on it,
    /// both outliving the context.
    pub unsafe fn x11(xdisplay: *mut c_void, window: u64) -> Result<(Self, glow::Context), String> {
        // SAFETY: as above; the caller vouches for the display and window.
        let egl = unsafe { Egl::load_required() }.map_err(|e| format!("cannot load libEGL.so.1: {e}"))?;
        let display = unsafe { egl.get_platform_display(PLATFORM_X11_KHR, xdisplay, &[egl::ATTRIB_NONE]) }
            .map_err(|e| format!("no EGL display on X11: {e}"))?;
        Self::finish(egl, display, Some(window), egl::WINDOW_BIT)
    }

    fn finish(
        egl: Egl,
        display: egl::Display,
        window: Option<u64>,
        surface_bit: egl::Int,
    ) -> Result<(Self, glow::Context), String> {
        egl.initialize(display).map_err(|e| format!("eglInitialize: {e}"))?;
        egl.bind_api(egl::OPENGL_API).map_err(|e| format!("eglBindAPI(OpenGL): {e}"))?;
        let attrs = [
            egl::SURFACE_TYPE,
            surface_bit,
            egl::RENDERABLE_TYPE,
            egl::OPENGL_BIT,
            egl::RED_SIZE,
            8,
            egl::GREEN_SIZE,
            8,
            egl::BLUE_SIZE,
            8,
            egl::DEPTH_SIZE,
            24,
            egl::NONE,
        ];
        let config = egl
            .choose_first_config(display, &attrs)
            .map_err(|e| format!("eglChooseConfig: {e}"))?
            .ok_or("no EGL config with RGB8, depth 24 and OpenGL")?;
        let ctx_attrs = [
            egl::CONTEXT_MAJOR_VERSION,
            3,
            egl::CONTEXT_MINOR_VERSION,
            3,
            egl::CONTEXT_OPENGL_PROFILE_MASK,
            egl::CONTEXT_OPENGL_CORE_PROFILE_BIT,
            egl::NONE,
        ];
        let context = egl
            .create_context(display, config, None, &ctx_attrs)
            .map_err(|e| format!("eglCreateContext (GL 3.3 core): {e}"))?;
        let surface = match window {
            // SAFETY: the caller of `x11` vouched for the window.
            Some(w) => Some(
                unsafe { egl.create_window_surface(display, config, w as usize as egl::NativeWindowType, None) }
                    .map_err(|e| format!("eglCreateWindowSurface: {e}"))?,
            ),
            None => None,
        };
        egl.make_current(display, surface, surface, Some(context)).map_err(|e| format!("eglMakeCurrent: {e}"))?;
        if window.is_some() {
            let _ = egl.swap_interval(display, 0);
        }
        // SAFETY: the loader returns GL entry points of the current context.
        let gl = unsafe {
            glow::Context::from_loader_function(|name| {
                egl.get_proc_address(name).map_or(std::ptr::null(), |f| f as *const c_void)
            })
        };
        Ok((GlContext { egl, display, context, surface }, gl))
    }

    /// Shows the drawn frame (window mode).
    pub fn swap(&self) {
        if let Some(s) = self.surface {
            let _ = self.egl.swap_buffers(self.display, s);
        }
    }
}

impl Drop for GlContext {
    fn drop(&mut self) {
        let _ = self.egl.make_current(self.display, None, None, None);
        if let Some(s) = self.surface.take() {
            let _ = self.egl.destroy_surface(self.display, s);
        }
        let _ = self.egl.destroy_context(self.display, self.context);
        let _ = self.egl.terminate(self.display);
    }
}
