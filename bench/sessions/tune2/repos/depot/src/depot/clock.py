from datetime import datetime


def now():
    return datetime.now()


def stamp(dt):
    return dt.strftime("%Y-%m-%d %H:%M:%S")
