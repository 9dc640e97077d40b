//! One frame's geometry: the vertices every `dsDraw*` call adds, in world
//! coordinates, grouped into batches that share how they are rasterised.
//! Drawing order is kept, as ODE's immediate-mode drawstuff draws in call
//! order (it matters for translucent objects and for shadows).

/// One vertex as the shaders read it (`#[repr(C)]`, 14 floats).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// World position.
    pub pos: [f32; 3],
    /// World normal (unused when unlit).
    pub normal: [f32; 3],
    /// RGBA colour (the material colour when lit).
    pub color: [f32; 4],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// 1 when lit by the scene's light, 0 when the colour is used as is.
    pub lit: f32,
    /// Texture number (`DS_NONE` = 0 … `DS_SKY` = 4).
    pub texture: f32,
}

/// Primitive type of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    /// Independent triangles.
    Triangles,
    /// Independent line segments.
    Lines,
}

/// Depth range of a batch, as ODE's drawstuff sets it: the sky at the far
/// plane, shadows just in front of the ground they lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthLayer {
    /// Depth range (0, 1).
    Normal,
    /// Depth range (1, 1): behind everything.
    Sky,
    /// Depth range (0, 0.9999): wins against the ground at equal depth.
    Shadow,
}

/// A run of vertices drawn with one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Triangles or lines.
    pub primitive: Primitive,
    /// Polygons drawn as outlines (`DS_WIREFRAME`).
    pub wireframe: bool,
    /// Depth range.
    pub layer: DepthLayer,
    /// First vertex.
    pub start: usize,
    /// Number of vertices.
    pub count: usize,
}

/// The geometry of one frame; cleared, not freed, between frames.
#[derive(Default)]
pub struct Frame {
    /// All vertices, in drawing order.
    pub vertices: Vec<Vertex>,
    /// Batches covering `vertices` in order.
    pub batches: Vec<Batch>,
}

impl Frame {
    /// Empties the frame, keeping its storage.
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.batches.clear();
    }

    /// Appends vertices with a state, merging with the previous batch when
    /// the state is the same.
    pub fn push(&mut self, primitive: Primitive, wireframe: bool, layer: DepthLayer, vertices: &[Vertex]) {
        if vertices.is_empty() {
            return;
        }
        let start = self.vertices.len();
        self.vertices.extend_from_slice(vertices);
        if let Some(last) = self.batches.last_mut() {
            if last.primitive == primitive && last.wireframe == wireframe && last.layer == layer {
                last.count += vertices.len();
                return;
            }
        }
        self.batches.push(Batch { primitive, wireframe, layer, start, count: vertices.len() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_push_merges_equal_states_and_keeps_order() {
        let mut f = Frame::default();
        let v = [Vertex::default(); 3];
        f.push(Primitive::Triangles, false, DepthLayer::Normal, &v);
        f.push(Primitive::Triangles, false, DepthLayer::Normal, &v);
        f.push(Primitive::Triangles, false, DepthLayer::Shadow, &v);
        f.push(Primitive::Lines, false, DepthLayer::Normal, &v[..2]);
        assert_eq!(f.batches.len(), 3);
        assert_eq!((f.batches[0].start, f.batches[0].count), (0, 6));
        assert_eq!((f.batches[1].start, f.batches[1].count), (6, 3));
        assert_eq!((f.batches[2].start, f.batches[2].count), (9, 2));
        f.clear();
        assert!(f.vertices.is_empty() && f.batches.is_empty());
    }
}
