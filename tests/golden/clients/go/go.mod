module github.com/kubegen/kubegen/clients/go

go 1.24

require (
	k8s.io/api v0.37.2
	k8s.io/apimachinery v0.37.2
)
