"""Procedural meshes: a small builder over ``GeomVertexData``/``GeomTriangles`` and the shapes the table needs.

Everything is built in code so the scene ships no model files. Coordinates are the table frame (metres,
z up); every shape takes its numbers from the caller (usually a :class:`physics.tables.TableSpec`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    InternalName,
    Triangulator,
)

Vec2T = tuple[float, float]
Vec3T = tuple[float, float, float]
ColourT = tuple[float, float, float, float]


class MeshBuilder:
    """Collects vertices (position, normal, colour, uv) and triangles, then makes one ``GeomNode``.

    Normals are explicit so flat faces shade flat and the balls shade smooth; colours are per vertex so
    one node can carry wood, leather and brass without state changes.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._pos: list[Vec3T] = []
        self._nrm: list[Vec3T] = []
        self._col: list[ColourT] = []
        self._uv: list[Vec2T] = []
        self._tri: list[tuple[int, int, int]] = []

    def vertex(
        self, pos: Vec3T, normal: Vec3T, colour: ColourT = (1, 1, 1, 1), uv: Vec2T = (0.0, 0.0)
    ) -> int:
        self._pos.append(pos)
        self._nrm.append(normal)
        self._col.append(colour)
        self._uv.append(uv)
        return len(self._pos) - 1

    def triangle(self, a: int, b: int, c: int) -> None:
        self._tri.append((a, b, c))

    def smooth_quad(self, ids: tuple[int, int, int, int]) -> None:
        """Two triangles over four existing vertices, wound to face the way the first one's normal points (back
        faces are culled): for swept surfaces with smooth normals."""
        a, b, c, d = ids
        face = _face_normal(self._pos[a], self._pos[b], self._pos[c])
        if _dot(face, self._nrm[a]) < 0:
            a, b, c, d = d, c, b, a
        self.triangle(a, b, c)
        self.triangle(a, c, d)

    def quad(
        self,
        p: Sequence[Vec3T],
        colour: ColourT,
        normal: Vec3T | None = None,
        uvs: Sequence[Vec2T] | None = None,
    ) -> None:
        """A planar quad p0..p3. With ``normal`` the winding is made to face it (back faces are culled, so a
        wall built in either order is seen from the side its normal names); without, p0..p3 run anticlockwise
        as seen from the front."""
        face = _face_normal(p[0], p[1], p[2])
        n = normal or face
        uvs = uvs or ((0, 0), (1, 0), (1, 1), (0, 1))
        i = [self.vertex(p[k], n, colour, uvs[k]) for k in range(4)]
        if _dot(face, n) < 0:
            i.reverse()
        self.triangle(i[0], i[1], i[2])
        self.triangle(i[0], i[2], i[3])

    def polygon(
        self,
        outline: Sequence[Vec2T],
        z: float,
        colour: ColourT,
        up: bool = True,
        holes: Sequence[Sequence[Vec2T]] = (),
        max_edge: float = 0.0,
        uv_of: Callable[[float, float], Vec2T] | None = None,
        z_of: Callable[[float, float], float] | None = None,
    ) -> None:
        """A flat polygon (any simple outline, optional holes) at height z, triangulated by Panda3D.

        ``max_edge`` > 0 splits long triangle edges so vertex lighting from the lamp has enough vertices
        to show its pool of light; the extra vertices lie in the plane, so T-junctions leave no cracks.
        ``z_of`` lifts each vertex (a gently tilted top); the normal stays straight up.
        """
        tri = Triangulator()
        for x, y in outline:
            tri.addPolygonVertex(tri.addVertex(x, y))
        for hole in holes:
            tri.beginHole()
            for x, y in hole:
                tri.addHoleVertex(tri.addVertex(x, y))
        tri.triangulate()
        pts = [(tri.getVertex(i)[0], tri.getVertex(i)[1]) for i in range(tri.getNumVertices())]
        tris: list[tuple[Vec2T, Vec2T, Vec2T]] = []
        for t in range(tri.getNumTriangles()):
            a, b, c = pts[tri.getTriangleV0(t)], pts[tri.getTriangleV1(t)], pts[tri.getTriangleV2(t)]
            if _cross2(a, b, c) < 0:
                b, c = c, b
            tris.extend(_subdivide((a, b, c), max_edge) if max_edge > 0 else [(a, b, c)])
        n: Vec3T = (0.0, 0.0, 1.0) if up else (0.0, 0.0, -1.0)
        for a, b, c in tris:
            ids = [
                self.vertex(
                    (p[0], p[1], z_of(*p) if z_of else z), n, colour, uv_of(*p) if uv_of else (p[0], p[1])
                )
                for p in (a, b, c)
            ]
            if up:
                self.triangle(*ids)
            else:
                self.triangle(ids[0], ids[2], ids[1])

    def extrude(
        self,
        section: Sequence[Vec2T],
        path_a: Callable[[float], Vec3T],
        path_b: Callable[[float], Vec3T],
        colour: ColourT,
        closed: bool = False,
        max_length: float = 0.0,
    ) -> None:
        """Sweep a 2D profile between two ends: flat-shaded strip faces.

        ``section`` is a list of (depth, z) points; ``path_a(depth)``/``path_b(depth)`` give the world point of
        the profile at that depth at either end (so the ends may be cut at an angle, as a cushion's jaw is).
        Each face's normal points away from the profile's centroid, so the winding of ``section`` does not
        matter. ``max_length`` > 0 cuts the sweep into pieces so vertex lighting varies along it.
        """
        cd = sum(p[0] for p in section) / len(section)
        cz = sum(p[1] for p in section) / len(section)
        count = len(section) if closed else len(section) - 1
        span = _sub(path_b(cd), path_a(cd))
        pieces = max(1, int(math.sqrt(_dot(span, span)) / max_length) + 1) if max_length > 0 else 1

        def at(f: float, d: float, z: float) -> Vec3T:
            a, b = path_a(d), path_b(d)
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, z)

        centre = _add(_scale(_add(path_a(cd), path_b(cd)), 0.5), (0, 0, cz))
        for k in range(count):
            d0, z0 = section[k]
            d1, z1 = section[(k + 1) % len(section)]
            mid = _scale(_add(_add(at(0.5, d0, z0), at(0.5, d1, z1)), (0.0, 0.0, 0.0)), 0.5)
            n = _face_normal(at(0, d0, z0), at(1, d0, z0), at(1, d1, z1))
            flip = _dot(n, _sub(mid, centre)) < 0
            if flip:
                n = _scale(n, -1.0)
            for j in range(pieces):
                f0, f1 = j / pieces, (j + 1) / pieces
                a0, a1, b0, b1 = at(f0, d0, z0), at(f0, d1, z1), at(f1, d0, z0), at(f1, d1, z1)
                self.quad([a0, a1, b1, b0] if flip else [a0, b0, b1, a1], colour, n)

    def cap(self, points: Sequence[Vec3T], colour: ColourT, towards: Vec3T) -> None:
        """A convex planar fan over ``points``, facing the side ``towards`` points to."""
        n = _face_normal(points[0], points[1], points[2])
        pts = list(points)
        if _dot(n, towards) < 0:
            pts.reverse()
            n = _scale(n, -1.0)
        ids = [self.vertex(p, n, colour) for p in pts]
        for k in range(1, len(ids) - 1):
            self.triangle(ids[0], ids[k], ids[k + 1])

    def box(self, lo: Vec3T, hi: Vec3T, colour: ColourT) -> None:
        x0, y0, z0 = lo
        x1, y1, z1 = hi
        self.quad([(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)], colour, (0, 0, 1))
        self.quad([(x0, y1, z0), (x1, y1, z0), (x1, y0, z0), (x0, y0, z0)], colour, (0, 0, -1))
        self.quad([(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)], colour, (0, -1, 0))
        self.quad([(x1, y1, z0), (x0, y1, z0), (x0, y1, z1), (x1, y1, z1)], colour, (0, 1, 0))
        self.quad([(x0, y1, z0), (x0, y0, z0), (x0, y0, z1), (x0, y1, z1)], colour, (-1, 0, 0))
        self.quad([(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)], colour, (1, 0, 0))

    def cylinder(
        self,
        centre: Vec3T,
        radius: float,
        z0: float,
        z1: float,
        colour: ColourT,
        segments: int = 24,
        inside: bool = False,
        top: bool = False,
        bottom: bool = False,
        radius_top: float | None = None,
    ) -> None:
        """A vertical (optionally tapered) cylinder; ``inside`` faces its normals inwards (a pocket cup)."""
        cx, cy, _ = centre
        rt = radius if radius_top is None else radius_top
        ring0, ring1 = [], []
        for k in range(segments + 1):
            a = 2 * math.pi * k / segments
            c, s = math.cos(a), math.sin(a)
            n: Vec3T = (-c, -s, 0.0) if inside else (c, s, 0.0)
            ring0.append(self.vertex((cx + radius * c, cy + radius * s, z0), n, colour))
            ring1.append(self.vertex((cx + rt * c, cy + rt * s, z1), n, colour))
        for k in range(segments):
            if inside:
                self.triangle(ring0[k], ring1[k + 1], ring0[k + 1])
                self.triangle(ring0[k], ring1[k], ring1[k + 1])
            else:
                self.triangle(ring0[k], ring0[k + 1], ring1[k + 1])
                self.triangle(ring0[k], ring1[k + 1], ring1[k])
        if top:
            self.disc((cx, cy, z1), rt, colour, segments)
        if bottom:
            self.disc((cx, cy, z0), radius, colour, segments, up=False)

    def disc(
        self, centre: Vec3T, radius: float, colour: ColourT, segments: int = 24, up: bool = True
    ) -> None:
        cx, cy, cz = centre
        n: Vec3T = (0, 0, 1) if up else (0, 0, -1)
        mid = self.vertex(centre, n, colour, (0.5, 0.5))
        ring = []
        for k in range(segments + 1):
            a = 2 * math.pi * k / segments
            ring.append(
                self.vertex(
                    (cx + radius * math.cos(a), cy + radius * math.sin(a), cz),
                    n,
                    colour,
                    (0.5 + 0.5 * math.cos(a), 0.5 + 0.5 * math.sin(a)),
                )
            )
        for k in range(segments):
            if up:
                self.triangle(mid, ring[k], ring[k + 1])
            else:
                self.triangle(mid, ring[k + 1], ring[k])

    def sphere(
        self, centre: Vec3T, radius: float, colour: ColourT, slices: int = 32, stacks: int = 16
    ) -> None:
        """A UV sphere: u runs with longitude (0 at +x, anticlockwise), v from the south pole (0) to the north (1).

        The seam column is duplicated so the texture wraps without a smeared strip.
        """
        cx, cy, cz = centre
        rows: list[list[int]] = []
        for j in range(stacks + 1):
            lat = -math.pi / 2 + math.pi * j / stacks
            cl, sl = math.cos(lat), math.sin(lat)
            row = []
            for i in range(slices + 1):
                lon = 2 * math.pi * i / slices
                n = (cl * math.cos(lon), cl * math.sin(lon), sl)
                row.append(
                    self.vertex(
                        (cx + radius * n[0], cy + radius * n[1], cz + radius * n[2]),
                        n,
                        colour,
                        (i / slices, j / stacks),
                    )
                )
            rows.append(row)
        for j in range(stacks):
            for i in range(slices):
                a, b = rows[j][i], rows[j][i + 1]
                c, d = rows[j + 1][i + 1], rows[j + 1][i]
                if j > 0:
                    self.triangle(a, b, c)
                if j < stacks - 1:
                    self.triangle(a, c, d)

    def node(self) -> GeomNode:
        vdata = GeomVertexData(self.name, _format(), Geom.UHStatic)
        vdata.uncleanSetNumRows(len(self._pos))
        pw = GeomVertexWriter(vdata, "vertex")
        nw = GeomVertexWriter(vdata, "normal")
        cw = GeomVertexWriter(vdata, "color")
        tw = GeomVertexWriter(vdata, "texcoord")
        tg = GeomVertexWriter(vdata, "tangent")
        for p, n, c, t in zip(self._pos, self._nrm, self._col, self._uv, strict=True):
            pw.setData3f(*p)
            nw.setData3f(*n)
            cw.setData4f(*c)
            tw.setData2f(*t)
            tg.setData4f(*_tangent(n), 1.0)
        prim = GeomTriangles(Geom.UHStatic)
        if len(self._pos) > 65535:
            prim.setIndexType(Geom.NTUint32)
        for i0, i1, i2 in self._tri:
            prim.addVertices(i0, i1, i2)
        geom = Geom(vdata)
        geom.addPrimitive(prim)
        node = GeomNode(self.name)
        node.addGeom(geom)
        return node


@cache
def _format() -> GeomVertexFormat:
    """Position, normal, colour, uv and a tangent: the PBR shader builds its normal frame from the tangent and
    a zero one would give NaN normals on some drivers."""
    arr = GeomVertexArrayFormat()
    arr.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
    arr.addColumn(InternalName.getNormal(), 3, Geom.NTFloat32, Geom.CNormal)
    arr.addColumn(InternalName.getColor(), 4, Geom.NTFloat32, Geom.CColor)
    arr.addColumn(InternalName.getTexcoord(), 2, Geom.NTFloat32, Geom.CTexcoord)
    arr.addColumn(InternalName.getTangent(), 4, Geom.NTFloat32, Geom.CVector)
    fmt = GeomVertexFormat()
    fmt.addArray(arr)
    return GeomVertexFormat.registerFormat(fmt)


def _tangent(n: Vec3T) -> Vec3T:
    """A unit vector across the normal (along x where it can be, as the uv layouts of flat parts run)."""
    ref: Vec3T = (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0)
    d = _dot(ref, n)
    t = (ref[0] - d * n[0], ref[1] - d * n[1], ref[2] - d * n[2])
    length = math.sqrt(_dot(t, t)) or 1.0
    return (t[0] / length, t[1] / length, t[2] / length)


def arc(centre: Vec2T, radius: float, a0: float, a1: float, segments: int) -> list[Vec2T]:
    """Points on a circle from angle a0 to a1 (radians, either direction), both ends included."""
    return [
        (
            centre[0] + radius * math.cos(a0 + (a1 - a0) * k / segments),
            centre[1] + radius * math.sin(a0 + (a1 - a0) * k / segments),
        )
        for k in range(segments + 1)
    ]


def _subdivide(t: tuple[Vec2T, Vec2T, Vec2T], max_edge: float) -> list[tuple[Vec2T, Vec2T, Vec2T]]:
    a, b, c = t
    edges = [(_dist2(a, b), 0), (_dist2(b, c), 1), (_dist2(c, a), 2)]
    longest, which = max(edges)
    if longest <= max_edge:
        return [t]
    if which == 0:
        m = _mid2(a, b)
        return _subdivide((a, m, c), max_edge) + _subdivide((m, b, c), max_edge)
    if which == 1:
        m = _mid2(b, c)
        return _subdivide((a, b, m), max_edge) + _subdivide((a, m, c), max_edge)
    m = _mid2(c, a)
    return _subdivide((a, b, m), max_edge) + _subdivide((m, b, c), max_edge)


def _dist2(a: Vec2T, b: Vec2T) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _mid2(a: Vec2T, b: Vec2T) -> Vec2T:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _cross2(a: Vec2T, b: Vec2T, c: Vec2T) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _add(a: Vec3T, b: Sequence[float]) -> Vec3T:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _sub(a: Vec3T, b: Vec3T) -> Vec3T:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _scale(a: Vec3T, s: float) -> Vec3T:
    return (a[0] * s, a[1] * s, a[2] * s)


def _dot(a: Vec3T, b: Vec3T) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _face_normal(a: Vec3T, b: Vec3T, c: Vec3T) -> Vec3T:
    u, v = _sub(b, a), _sub(c, a)
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = math.sqrt(_dot(n, n)) or 1.0
    return (n[0] / length, n[1] / length, n[2] / length)
