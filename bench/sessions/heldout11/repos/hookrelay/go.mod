module github.com/lanternops/hookrelay

go 1.22
