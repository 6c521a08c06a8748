package server

// hostRoutes are the host's routes over every game of the server (issue
// 35, "Your games").
func (s *Server) hostRoutes() []route { return nil }
