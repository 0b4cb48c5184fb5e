module kubegen.dev/k8s-markers

go 1.22
