//! Collision detection (collision.h, collision_space.h).
//!
//! - `shapes`: plain shape data and poses; what colliders read.
//! - `contact`: `ContactSink`, the strided `dContactGeom` output of a collider.
//! - `colliders/`: one file per pair family, pure functions over shapes and
//!   poses (no geom objects), so they are testable on their own.
//! - `geom`: geom objects (pooled handles), bodies, offsets, AABBs, bits.
//! - `space`: simple, hash, quadtree and sweep-and-prune spaces.
//! - `dispatch`: `dCollide`'s class-pair table, argument swapping, g1/g2.
//! - `transform`: geom transforms and their collider.
//! - `draw`: debug drawing, shapes at their world placement (`odexSpaceDraw`).
//! - `user_class`: host-defined geom classes.
//! - `heightfield_data`: heightfield sample data objects.
//! - `trimesh`: triangle mesh data, its BVH and the trimesh colliders.
pub mod colliders;
pub mod contact;
pub mod dispatch;
pub mod draw;
pub mod geom;
pub mod heightfield_data;
pub mod shapes;
pub mod space;
pub mod transform;
pub mod trimesh;
pub mod user_class;
