//! OpenGL 3.3 core rendering of a [`Frame`] with one shader pair that
//! reproduces drawstuff's look: the fixed-function light at (1, 0.4, 1)
//! with its material split (ambient 0.3, diffuse 0.7, specular 0.2 of the
//! colour, shininess 5), textures modulating the colour, grey clear colour.
//! It draws into the current context's framebuffer, or into an offscreen
//! one (headless), and reads pixels back for the PNG/GIF recorder.
use crate::frame::{DepthLayer, Frame, Primitive, Vertex};
use crate::textures;
use glam::Mat4;
use glow::HasContext;
use std::path::Path;

const VERTEX_SHADER: &str = r#"#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec2 a_uv;
layout(location = 4) in vec2 a_mode;
uniform mat4 u_view_proj;
out vec3 v_pos;
out vec3 v_normal;
out vec4 v_color;
out vec2 v_uv;
flat out vec2 v_mode;
void main() {
    v_pos = a_pos;
    v_normal = a_normal;
    v_color = a_color;
    v_uv = a_uv;
    v_mode = a_mode;
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"#version 330 core
in vec3 v_pos;
in vec3 v_normal;
in vec4 v_color;
in vec2 v_uv;
flat in vec2 v_mode;
uniform vec3 u_eye;
uniform sampler2D u_tex[4];
out vec4 o_color;
void main() {
    // Sample every texture (uniform control flow keeps mipmapping defined), then pick.
    vec3 t1 = texture(u_tex[0], v_uv).rgb;
    vec3 t2 = texture(u_tex[1], v_uv).rgb;
    vec3 t3 = texture(u_tex[2], v_uv).rgb;
    vec3 t4 = texture(u_tex[3], v_uv).rgb;
    float k = v_mode.y;
    vec3 tex = k < 0.5 ? vec3(1.0) : k < 1.5 ? t1 : k < 2.5 ? t2 : k < 3.5 ? t3 : t4;
    vec3 c = v_color.rgb;
    if (v_mode.x > 0.5) {
        vec3 n = normalize(v_normal);
        vec3 l = normalize(vec3(1.0, 0.4, 1.0));
        float d = max(dot(n, l), 0.0);
        vec3 h = normalize(l + normalize(u_eye - v_pos));
        float s = d > 0.0 ? pow(max(dot(n, h), 0.0), 5.0) : 0.0;
        // Light ambient 0.5 plus GL's global ambient 0.2, on a 0.3 ambient material.
        c = c * (0.3 * 0.7) + c * 0.7 * d + c * 0.2 * s;
    }
    o_color = vec4(c * tex, v_color.a);
}
"#;

/// Offscreen colour + depth target (headless mode).
struct Offscreen {
    fbo: glow::Framebuffer,
    color: glow::Renderbuffer,
    depth: glow::Renderbuffer,
}

/// GL objects for drawing frames.
pub struct Renderer {
    gl: glow::Context,
    program: glow::Program,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    textures: [glow::Texture; 4],
    u_view_proj: Option<glow::UniformLocation>,
    u_eye: Option<glow::UniformLocation>,
    offscreen: Option<Offscreen>,
    width: u32,
    height: u32,
}

impl Renderer {
    /// Sets up shaders, buffers and textures in the current context; with
    /// `offscreen`, also a `width` × `height` framebuffer to draw into.
    pub fn new(
        gl: glow::Context,
        width: u32,
        height: u32,
        offscreen: bool,
        texture_dir: Option<&Path>,
    ) -> Result<Self, String> {
        // SAFETY: `gl` was loaded from the context current on this thread;
        // every object used below is created here first.
        unsafe {
            let program = gl.create_program()?;
            for (kind, src) in [(glow::VERTEX_SHADER, VERTEX_SHADER), (glow::FRAGMENT_SHADER, FRAGMENT_SHADER)] {
                let sh = gl.create_shader(kind)?;
                gl.shader_source(sh, src);
                gl.compile_shader(sh);
                if !gl.get_shader_compile_status(sh) {
                    return Err(format!("shader: {}", gl.get_shader_info_log(sh)));
                }
                gl.attach_shader(program, sh);
            }
            gl.link_program(program);
            if !gl.get_program_link_status(program) {
                return Err(format!("program: {}", gl.get_program_info_log(program)));
            }
            gl.use_program(Some(program));
            let u_view_proj = gl.get_uniform_location(program, "u_view_proj");
            let u_eye = gl.get_uniform_location(program, "u_eye");
            let u_tex = gl.get_uniform_location(program, "u_tex");
            gl.uniform_1_i32_slice(u_tex.as_ref(), &[0, 1, 2, 3]);

            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let stride = std::mem::size_of::<Vertex>() as i32;
            for (loc, size, offset) in [(0u32, 3, 0), (1, 3, 12), (2, 4, 24), (3, 2, 40), (4, 2, 48)] {
                gl.enable_vertex_attrib_array(loc);
                gl.vertex_attrib_pointer_f32(loc, size, glow::FLOAT, false, stride, offset);
            }

            let mut textures = Vec::with_capacity(4);
            for i in 0..4 {
                let img = textures::load(texture_dir, i + 1);
                let tex = gl.create_texture()?;
                gl.active_texture(glow::TEXTURE0 + i as u32);
                gl.bind_texture(glow::TEXTURE_2D, Some(tex));
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA8 as i32,
                    img.width as i32,
                    img.height as i32,
                    0,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(&img.rgba)),
                );
                gl.generate_mipmap(glow::TEXTURE_2D);
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::LINEAR_MIPMAP_LINEAR as i32);
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::LINEAR as i32);
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, glow::REPEAT as i32);
                gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, glow::REPEAT as i32);
                textures.push(tex);
            }
            let textures: [glow::Texture; 4] = textures.try_into().map_err(|_| "textures".to_string())?;

            let mut r =
                Renderer { gl, program, vao, vbo, textures, u_view_proj, u_eye, offscreen: None, width, height };
            if offscreen {
                r.make_offscreen(width, height)?;
            }
            Ok(r)
        }
    }

    fn make_offscreen(&mut self, width: u32, height: u32) -> Result<(), String> {
        let gl = &self.gl;
        // SAFETY: plain object creation and binding in the current context.
        unsafe {
            let fbo = gl.create_framebuffer()?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            let color = gl.create_renderbuffer()?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(color));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width as i32, height as i32);
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(color));
            let depth = gl.create_renderbuffer()?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(depth));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH_COMPONENT24, width as i32, height as i32);
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::DEPTH_ATTACHMENT, glow::RENDERBUFFER, Some(depth));
            if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
                return Err("offscreen framebuffer incomplete".into());
            }
            self.offscreen = Some(Offscreen { fbo, color, depth });
        }
        Ok(())
    }

    /// The size frames are drawn at.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Follows a window resize (window mode).
    pub fn resize(&mut self, width: u32, height: u32) {
        self.width = width.max(1);
        self.height = height.max(1);
    }

    /// Draws `frame` seen through `view` and `proj` from `eye`.
    pub fn draw(&mut self, frame: &Frame, view: Mat4, proj: Mat4, eye: [f32; 3]) {
        let gl = &self.gl;
        // SAFETY: the buffers uploaded are the frame's own slices; batch
        // ranges lie inside them by construction (Frame::push).
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, self.offscreen.as_ref().map(|o| o.fbo));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.clear_color(0.5, 0.5, 0.5, 1.0);
            gl.clear_depth_f64(1.0);
            gl.depth_mask(true);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.enable(glow::CULL_FACE);
            gl.cull_face(glow::BACK);
            gl.front_face(glow::CCW);
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
            gl.line_width(2.0);
            let _ = gl.get_error(); // wide lines may be unsupported: 1-pixel lines then.

            gl.use_program(Some(self.program));
            gl.uniform_matrix_4_f32_slice(self.u_view_proj.as_ref(), false, &(proj * view).to_cols_array());
            gl.uniform_3_f32(self.u_eye.as_ref(), eye[0], eye[1], eye[2]);
            for (i, t) in self.textures.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + i as u32);
                gl.bind_texture(glow::TEXTURE_2D, Some(*t));
            }
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            let bytes = std::slice::from_raw_parts(
                frame.vertices.as_ptr() as *const u8,
                std::mem::size_of_val(frame.vertices.as_slice()),
            );
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STREAM_DRAW);
            for b in &frame.batches {
                let (near, far) = match b.layer {
                    DepthLayer::Normal => (0.0, 1.0),
                    DepthLayer::Sky => (1.0, 1.0),
                    DepthLayer::Shadow => (0.0, 0.9999),
                };
                gl.depth_range_f64(near, far);
                gl.polygon_mode(glow::FRONT_AND_BACK, if b.wireframe { glow::LINE } else { glow::FILL });
                let mode = match b.primitive {
                    Primitive::Triangles => glow::TRIANGLES,
                    Primitive::Lines => glow::LINES,
                };
                gl.draw_arrays(mode, b.start as i32, b.count as i32);
            }
            gl.depth_range_f64(0.0, 1.0);
            gl.polygon_mode(glow::FRONT_AND_BACK, glow::FILL);
        }
    }

    /// The last frame's pixels, RGBA, top row first.
    pub fn read_pixels(&self, out: &mut Vec<u8>) {
        let (w, h) = (self.width as usize, self.height as usize);
        out.resize(w * h * 4, 0);
        // SAFETY: `out` holds exactly w × h RGBA pixels.
        unsafe {
            self.gl.bind_framebuffer(glow::READ_FRAMEBUFFER, self.offscreen.as_ref().map(|o| o.fbo));
            self.gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            self.gl.read_pixels(
                0,
                0,
                w as i32,
                h as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(out.as_mut_slice())),
            );
        }
        // GL's rows start at the bottom.
        let row = w * 4;
        for y in 0..h / 2 {
            let (top, bottom) = out.split_at_mut((h - 1 - y) * row);
            top[y * row..(y + 1) * row].swap_with_slice(&mut bottom[..row]);
        }
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        let gl = &self.gl;
        // SAFETY: deleting the objects this renderer created.
        unsafe {
            if let Some(o) = self.offscreen.take() {
                gl.delete_framebuffer(o.fbo);
                gl.delete_renderbuffer(o.color);
                gl.delete_renderbuffer(o.depth);
            }
            for t in self.textures {
                gl.delete_texture(t);
            }
            gl.delete_buffer(self.vbo);
            gl.delete_vertex_array(self.vao);
            gl.delete_program(self.program);
        }
    }
}
