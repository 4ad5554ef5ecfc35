from geofence.distance import haversine
from geofence.geometry import Point, from_geojson, point_in_polygon

SQUARE = from_geojson([[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]])


def test_inside_and_outside():
    assert point_in_polygon(Point(0.5, 0.5), SQUARE)
    assert not point_in_polygon(Point(1.5, 0.5), SQUARE)


def test_haversine_one_degree_of_latitude():
    assert abs(haversine(Point(0, 0), Point(0, 1)) - 111_195) < 10
